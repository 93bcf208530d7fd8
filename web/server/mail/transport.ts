import { mkdir, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import nodemailer, { type SendMailOptions, type TransportOptions as NodemailerOptions, type Transporter } from 'nodemailer';
import type { MailMessage } from './templates.js';

/**
 * Hands a mail to the outside world: an SMTP relay (PTAX_SMTP_URL, through nodemailer), or,
 * with no relay configured, an .eml file in PTAX_MAIL_DIR that a person can open. `send`
 * resolves once the relay accepted the mail (its 250 after DATA) or the file is complete.
 */
export interface MailTransport {
  readonly description: string;
  send(jobId: number, messageId: string, from: string, message: MailMessage): Promise<void>;
  close(): void;
}

export interface TransportOptions {
  smtpUrl?: string | undefined;
  mailDir: string;
  /** Connection, greeting and socket timeouts of one SMTP attempt. */
  timeoutMs: number;
  /** Most mails sent at once: the SMTP pool's connections. */
  concurrency?: number;
}

export function createTransport(options: TransportOptions): MailTransport {
  return options.smtpUrl ? new SmtpTransport(options.smtpUrl, options.timeoutMs, options.concurrency ?? 1) : new FileTransport(options.mailDir);
}

function mailOptions(messageId: string, from: string, message: MailMessage): SendMailOptions {
  return {
    from,
    to: message.to,
    subject: message.subject,
    text: message.text,
    html: message.html,
    headers: { ...message.headers, 'Content-Language': message.language },
    messageId,
    // The relay gets the stored (punycode) address; nothing is looked up in DNS here.
    envelope: { from: envelopeAddress(from), to: [message.to] },
  };
}

/** `Name <a@b.c>` -> `a@b.c`. */
function envelopeAddress(from: string): string {
  return /<([^>]+)>\s*$/.exec(from)?.[1] ?? from.trim();
}

class SmtpTransport implements MailTransport {
  readonly description: string;
  private readonly transporter: Transporter;

  constructor(url: string, timeoutMs: number, connections: number) {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      throw new RangeError('PTAX_SMTP_URL must be an smtp:// or smtps:// URL (smtp://user:password@host:587)');
    }
    if (parsed.protocol !== 'smtp:' && parsed.protocol !== 'smtps:') {
      throw new RangeError(`PTAX_SMTP_URL must be an smtp:// or smtps:// URL, got "${parsed.protocol}"`);
    }
    // No password in logs: the description keeps the host and port only.
    this.description = `SMTP ${parsed.protocol}//${parsed.host}`;
    // A pool of connections, one per mail the outbox sends at once, each reused for up to
    // 100 mails: no new connection, greeting and STARTTLS per mail.
    this.transporter = nodemailer.createTransport({
      url,
      pool: true,
      maxConnections: connections,
      maxMessages: 100,
      connectionTimeout: timeoutMs,
      greetingTimeout: timeoutMs,
      socketTimeout: timeoutMs,
    } as NodemailerOptions);
  }

  async send(_jobId: number, messageId: string, from: string, message: MailMessage): Promise<void> {
    await this.transporter.sendMail(mailOptions(messageId, from, message));
  }

  close(): void {
    this.transporter.close();
  }
}

class FileTransport implements MailTransport {
  readonly description: string;
  private dirMade = false;
  private readonly composer = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });

  constructor(private readonly dir: string) {
    this.description = `.eml files in ${dir}`;
  }

  /**
   * `<dir>/<job id>.eml`, written whole (temporary file, then rename): a retry rewrites the same
   * file. The writes are asynchronous, so the outbox's mails in flight are written together
   * instead of one after the other on the event loop.
   */
  async send(jobId: number, messageId: string, from: string, message: MailMessage): Promise<void> {
    const info = await this.composer.sendMail(mailOptions(messageId, from, message));
    if (!this.dirMade) {
      await mkdir(this.dir, { recursive: true, mode: 0o700 });
      this.dirMade = true;
    }
    const name = `${String(jobId).padStart(6, '0')}.eml`;
    const temporary = join(this.dir, `.${name}.tmp`);
    try {
      await writeFile(temporary, info.message as Buffer, { mode: 0o600 });
    } catch (error) {
      this.dirMade = false; // the folder may have been removed: made again on the next attempt
      throw error;
    }
    await rename(temporary, join(this.dir, name));
  }

  close(): void {
    this.composer.close();
  }
}
