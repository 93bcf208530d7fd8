import type { Socket } from 'node:net';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';

/**
 * A real SMTP server in the test process (smtp-server), on a free loopback port, that keeps
 * every mail it accepted, parsed by mailparser. It can be told to misbehave for the next
 * connections or mails: refuse the mail with a 451, drop the connection at once, or stall
 * (take the mail and never answer) to hold a send in flight.
 */
export interface ReceivedMail {
  parsed: ParsedMail;
  raw: string;
  /** The envelope's recipients (RCPT TO). */
  to: string[];
}

export interface TestSmtp {
  url: string;
  port: number;
  received: ReceivedMail[];
  /** Mails refused with 451 before the next one is accepted. */
  refuseNext: number;
  /** Connections dropped on connect before the next one is served. */
  dropNext: number;
  /** While true, mails are read and never answered (the client waits until its timeout). */
  stall: boolean;
  /** Mails whose DATA arrived (accepted, refused or stalled). */
  attempts: number;
  /** Connections accepted so far. */
  connections: number;
  waitFor(count: number, timeoutMs?: number): Promise<ReceivedMail[]>;
  close(): Promise<void>;
}

export async function startSmtp(port = 0): Promise<TestSmtp> {
  const sockets = new Set<Socket>();
  const state: TestSmtp = {
    url: '',
    port: 0,
    received: [],
    refuseNext: 0,
    dropNext: 0,
    stall: false,
    attempts: 0,
    connections: 0,
    waitFor: async (count, timeoutMs = 10_000) => {
      const deadline = Date.now() + timeoutMs;
      while (state.received.length < count) {
        if (Date.now() > deadline) throw new Error(`the test SMTP server received ${state.received.length} mails, not ${count}, in ${timeoutMs} ms`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      return state.received;
    },
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  const server = new SMTPServer({
    disabledCommands: ['STARTTLS', 'AUTH'],
    authOptional: true,
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        state.attempts += 1;
        if (state.stall) return; // never answered
        if (state.refuseNext > 0) {
          state.refuseNext -= 1;
          const error = new Error('try again later') as Error & { responseCode: number };
          error.responseCode = 451;
          callback(error);
          return;
        }
        const raw = Buffer.concat(chunks).toString('utf8');
        const to = session.envelope.rcptTo.map((r) => r.address);
        simpleParser(raw).then(
          (parsed) => {
            state.received.push({ parsed, raw, to });
            callback();
          },
          (error: Error) => callback(error),
        );
      });
    },
  });
  const net = (server as unknown as { server: import('node:net').Server }).server;
  net.on('connection', (socket: Socket) => {
    sockets.add(socket);
    state.connections += 1;
    socket.on('close', () => sockets.delete(socket));
    if (state.dropNext > 0) {
      state.dropNext -= 1;
      socket.destroy();
    }
  });
  server.on('error', () => {
    // A dropped connection is an error for smtp-server; the tests expect it.
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', () => resolve()));
  state.port = (net.address() as import('node:net').AddressInfo).port;
  state.url = `smtp://127.0.0.1:${state.port}`;
  return state;
}

/** The links of a mail's text part, by path (`/confirm`, `/es/cancelar-suscripcion`…). */
export function linksOf(mail: ReceivedMail): Map<string, URL> {
  const links = new Map<string, URL>();
  for (const [url] of (mail.parsed.text ?? '').matchAll(/https?:\/\/\S+/g)) {
    const parsed = new URL(url);
    links.set(parsed.pathname, parsed);
  }
  return links;
}

/** A header as sent (unfolded, without its name), from mailparser's raw header lines. */
export function headerLine(parsed: { headerLines: ReadonlyArray<{ key: string; line: string }> }, key: string): string | undefined {
  const line = parsed.headerLines.find((h) => h.key === key.toLowerCase())?.line;
  return line
    ?.slice(line.indexOf(':') + 1)
    .replace(/\r?\n[ \t]+/g, ' ')
    .trim();
}
