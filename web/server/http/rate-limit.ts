import type { Server } from 'node:http';
import { isIP, type Socket } from 'node:net';
import BetterSqlite3, { type Database, type Statement } from 'better-sqlite3';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { requestLanguage, sendAnswer } from './answers.js';
import { RETRY_AFTER_SECONDS } from './errors.js';

/**
 * The POST budget per client address, counted in the database file (table rate_limits), so
 * that every server process on the machine shares one budget: fixed windows of one minute,
 * one row per address and minute, incremented and read in one statement.
 *
 * The counters use the side connection (openSideConnection): a counter lost in a power cut
 * costs nothing, and the form writes keep their one fsync per group commit. The client is
 * clientKey(request): the socket's peer as it was when the connection opened (a client that
 * resets its connection is still counted), or with PTAX_TRUST_PROXY the address a trusted
 * proxy saw; an IPv6 client counts by its /64.
 *
 * The limit never fails open: a request whose counter cannot be written is refused with 503
 * (the form's own write would hardly do better), and so is a request whose client address
 * cannot be known (it reset the connection before it was even accepted: no one reads the
 * answer).
 */
export class RateLimiter {
  private readonly hit: Statement<{ client: string; minute: number }, { count: number }>;
  private readonly forget: Statement<[number]>;
  private lastPurgedMinute = 0;

  /** `db`: a connection of its own (openSideConnection), not the one of the group commit. */
  constructor(
    private readonly db: Database,
    private readonly perMinute: number,
    private readonly now: () => number = Date.now,
  ) {
    this.hit = this.db.prepare(`
      INSERT INTO rate_limits (client, minute, count) VALUES (@client, @minute, 1)
      ON CONFLICT (client, minute) DO UPDATE SET count = count + 1
      RETURNING count`);
    this.forget = this.db.prepare('DELETE FROM rate_limits WHERE minute < ?');
  }

  /** Counts one request; returns the seconds to wait when the budget is spent, else undefined. */
  take(client: string): number | undefined {
    const now = this.now();
    const minute = Math.floor(now / 60_000);
    if (minute !== this.lastPurgedMinute) {
      this.lastPurgedMinute = minute;
      this.forget.run(minute - 1);
    }
    const count = this.hit.get({ client, minute })?.count ?? 1;
    if (count <= this.perMinute) return undefined;
    return Math.max(1, Math.ceil(((minute + 1) * 60_000 - now) / 1000));
  }

  /** An onRequest hook: 429 JSON with Retry-After past the budget; 503 when the counter cannot be written. */
  readonly hook = async (request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply | undefined> => {
    let wait: number | undefined;
    try {
      const client = clientKey(request);
      if (client === undefined) throw new Error('the client address is unknown (connection reset before it was accepted)');
      wait = this.take(client);
    } catch (error) {
      // Never let an uncounted request through: that is how the limit was bypassed (issue 25).
      request.log.error({ err: error }, 'rate limit not counted: request refused');
      reply.header('retry-after', String(RETRY_AFTER_SECONDS));
      return sendAnswer(reply, 503, 'unavailable', requestLanguage(request));
    }
    if (wait === undefined) return undefined;
    reply.header('retry-after', String(wait));
    return sendAnswer(reply, 429, 'rate_limited', requestLanguage(request));
  };
}

const PEER = Symbol('ptax.peer');
type RememberingSocket = Socket & { [PEER]?: string | undefined };

/**
 * Remembers each connection's peer address as it opens. Once a client has reset its
 * connection, Node no longer knows the address (socket.remoteAddress is undefined), and a
 * request it had sent whole is still handled: without this its counter could not be written.
 * Reading remoteAddress here also makes Node keep it, for Fastify's request.ip and ips.
 */
export function rememberPeers(server: Server): void {
  server.on('connection', (socket: RememberingSocket) => {
    socket[PEER] = socket.remoteAddress;
  });
}

/**
 * The rate-limit key of a request's client. The chain of addresses is the socket's peer (as
 * remembered), then, with PTAX_TRUST_PROXY, X-Forwarded-For from the right up to the first
 * address that is not a trusted proxy (Fastify's request.ips). The client is the last entry
 * of that chain that is an IP address: a trusted proxy writes the address it saw, so a string
 * that is not one was typed by the visitor and is worth no budget of its own; the proxy that
 * passed it on is counted instead. IPv4-mapped IPv6 counts as IPv4; IPv6 by its /64 (one
 * host is routinely given a whole /64). Undefined when the peer's address is not known.
 */
export function clientKey(request: FastifyRequest): string | undefined {
  const socket = request.raw.socket as RememberingSocket | null;
  const peer = socket?.[PEER] ?? socket?.remoteAddress;
  if (!peer) return undefined;
  const chain = (request as { ips?: Array<string | undefined> }).ips ?? [peer];
  chain[0] = peer;
  for (let i = chain.length - 1; i >= 0; i--) {
    const key = addressKey(chain[i]);
    if (key !== undefined) return key;
  }
  return undefined;
}

/** `203.0.113.9` as is; `::ffff:203.0.113.9` -> `203.0.113.9`; `2001:db8:1:2::5` -> `2001:db8:1:2::/64`; not an address -> undefined. */
export function addressKey(raw: string | undefined): string | undefined {
  if (raw === undefined) return undefined;
  const address = raw.trim().toLowerCase().replace(/%.*$/, ''); // an IPv6 zone (fe80::1%eth0)
  const version = isIP(address);
  if (version === 4) return address;
  if (version !== 6) return undefined;
  const mapped = /^(?:0{0,4}:){0,5}:?ffff:(\d{1,3}(?:\.\d{1,3}){3})$/.exec(address)?.[1];
  if (mapped !== undefined && isIP(mapped) === 4) return mapped;
  const groups = expandIpv6(address);
  return `${groups
    .slice(0, 4)
    .map((g) => g.replace(/^0+(?=.)/, ''))
    .join(':')}::/64`;
}

/** The eight 16-bit groups of a valid IPv6 address (an IPv4 tail counts as two). */
function expandIpv6(address: string): string[] {
  const toGroups = (part: string): string[] => {
    if (part === '') return [];
    return part.split(':').flatMap((group) => {
      if (!group.includes('.')) return [group];
      const [a, b, c, d] = group.split('.').map(Number) as [number, number, number, number];
      return [((a << 8) | b).toString(16), ((c << 8) | d).toString(16)];
    });
  };
  const [head = '', tail] = address.split('::');
  const left = toGroups(head);
  const right = tail === undefined ? [] : toGroups(tail);
  const zeros = tail === undefined ? [] : Array.from({ length: 8 - left.length - right.length }, () => '0');
  return [...left, ...zeros, ...right];
}

/**
 * A second connection to the database file for the writes that need no fsync of their own:
 * rate-limit counters and the outbox's claims and marks. synchronous=NORMAL: in WAL mode a
 * commit survives the process being killed (it is in the WAL file), only a power cut or an OS
 * crash may lose the last ones, and no commit waits for the disk. The forms' writes keep
 * their own connection with synchronous=FULL and group commit.
 */
export function openSideConnection(dbPath: string): Database {
  const db = new BetterSqlite3(dbPath, { fileMustExist: true });
  db.pragma('busy_timeout = 5000');
  db.pragma('synchronous = NORMAL');
  return db;
}
