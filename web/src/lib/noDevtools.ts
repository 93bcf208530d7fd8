/**
 * `@tanstack/devtools-event-client` in the browser build (web/vite.config.ts alias): the
 * calculator form's library (@tanstack/form-core) talks to TanStack's devtools through this
 * bus, and in production its real client queues every change of the form's state and retries
 * a connection to the devtools every second. The site ships no devtools, so the bus is
 * silent here: the same methods, doing nothing (issue 28: 1.3 KB gzip and the main-thread
 * time of that work).
 */
export class EventClient {
  constructor(_options: { pluginId: string; debug?: boolean; enabled?: boolean; reconnectEveryMs?: number }) {}
  emit(_event: string, _payload?: unknown): void {}
  on(_event: string, _cb: (e: unknown) => void, _options?: unknown): () => void {
    return () => {};
  }
  onAll(_cb: (e: unknown) => void): () => void {
    return () => {};
  }
  onAllPluginEvents(_cb: (e: unknown) => void): () => void {
    return () => {};
  }
  getPluginId(): string {
    return '';
  }
}
