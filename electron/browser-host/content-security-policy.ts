// The page's content security policy, the same from both hosts: the browser host sends it with every
// answer (server.ts), the Electron host on every response of its session and its app:// protocol
// (main/security.ts, main/protocol.ts).

/**
 * The page's policy, one literal so both hosts send the same header and a security linter can read
 * it: our own scripts, styles and fonts only (no inline script or style, no eval), images from us
 * and data: URLs, network access to our own origin only. Map tiles come through the host (/tiles/,
 * cached for offline use), so the page never reaches the tile server itself. renderer/index.html
 * carries the same policy in a meta tag, without frame-ancestors (which a meta tag cannot hold);
 * test/host/browser-host.test.ts keeps the two in step.
 */
export const CONTENT_SECURITY_POLICY =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; font-src 'self'; connect-src 'self'; worker-src 'self'; manifest-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'; object-src 'none'";
