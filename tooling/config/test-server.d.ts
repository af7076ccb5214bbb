import type { RequestListener, Server } from 'node:http';

export interface TestServer {
  server: Server;
  /** `http://127.0.0.1:<port>`, with no path. */
  url: string;
  /** Stops listening, ends idle connections at once, and resolves once the busy ones are done. */
  close: () => Promise<void>;
  /** As `close`, and ends the busy connections too: for requests the server holds and never answers. */
  cut: () => Promise<void>;
}

export declare function listen(handler: RequestListener): Promise<TestServer>;
