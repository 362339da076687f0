// The app's API as its page calls it, for tests and benches that drive a running app from outside
// its page: POST /api/METHOD with the run's token and the arguments as a JSON array; the answer's
// `value`, or its error's message (with the method's name) thrown.

/** One API call to the app at `origin` (http://127.0.0.1:PORT) with the page's `token`. */
export type PageCall = <T>(method: string, ...args: unknown[]) => Promise<T>;

export function pageApi(origin: string, token: string): PageCall {
  return async <T>(method: string, ...args: unknown[]): Promise<T> => {
    const response = await fetch(`${origin}/api/${method}`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
      body: JSON.stringify(args),
    });
    const body = (await response.json()) as { value?: T; error?: { message: string } };
    if (!response.ok) throw new Error(`${method}: ${body.error?.message ?? response.status}`);
    return body.value as T;
  };
}
