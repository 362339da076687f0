// The IPC vocabulary shared by the main process and the preload: one request channel, one event
// channel, and the envelope a call answers with. A refusal travels as data rather than as a thrown
// error, so the renderer gets the host's sentence instead of Electron's "Error invoking remote method".

export const INVOKE_CHANNEL = 'sitewalk:invoke';
export const EVENT_CHANNEL = 'sitewalk:event';

export type InvokeReply = { ok: true; value: unknown } | { ok: false; error: { code: string; message: string } };
