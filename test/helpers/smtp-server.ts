import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  envelope: string[];
  mail: ParsedMail;
}

export interface HeldMail extends ReceivedMail {
  /** Answers the held DATA command with 250 (nothing happens once the client has gone). */
  release(): void;
}

export interface TestSmtpOptions {
  /** The code each RCPT of this address is refused with (4xx, 5xx), or undefined to accept it. */
  refuse?: (address: string) => number | undefined;
  /** Messages whose DATA answer waits for `release()` (a server slow to answer, or an instance killed mid-send). */
  hold?: (received: ReceivedMail) => boolean;
}

/** A real SMTP server in this process (plain, loopback, any credentials or none), recording what it accepts. */
export class TestSmtpServer {
  /** Messages answered 250. */
  readonly received: ReceivedMail[] = [];
  /** Messages whose answer is held. */
  readonly held: HeldMail[] = [];

  private constructor(private readonly server: SMTPServer, readonly port: number) {}

  /** Listens on `port` (0: a free one). */
  static async start(options: TestSmtpOptions = {}, port = 0): Promise<TestSmtpServer> {
    let self: TestSmtpServer | undefined;
    const server = new SMTPServer({
      authOptional: true,
      // Credentials in CALENDAR_SMTP_URL are accepted as given (loopback: no TLS needed).
      allowInsecureAuth: true,
      onAuth(auth, _session, callback) {
        callback(null, { user: auth.username });
      },
      disabledCommands: ['STARTTLS'],
      logger: false,
      onRcptTo(address, _session, callback) {
        const code = options.refuse?.(address.address);
        if (code !== undefined) return callback(Object.assign(new Error(`${code} refused`), { responseCode: code }));
        callback();
      },
      onData(stream, session, callback) {
        simpleParser(stream).then((mail) => {
          const received = { envelope: session.envelope.rcptTo.map((rcpt) => rcpt.address), mail };
          if (options.hold?.(received)) {
            self!.held.push({ ...received, release: () => callback() });
            return;
          }
          self!.received.push(received);
          callback();
        }, callback);
      },
    });
    const bound = await new Promise<number>((resolve, reject) => {
      server.server.once('error', reject);
      server.listen(port, '127.0.0.1', () => resolve((server.server.address() as { port: number }).port));
    });
    self = new TestSmtpServer(server, bound);
    return self;
  }

  /** A port nothing listens on now (to start a server there later). */
  static async freePort(): Promise<number> {
    const probe = await TestSmtpServer.start();
    await probe.close();
    return probe.port;
  }

  /** Resolves when `done` holds for what arrived (accepted and held), polling; fails after `timeoutMs`. */
  async until(done: (server: TestSmtpServer) => boolean, timeoutMs = 30_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!done(this)) {
      if (Date.now() > deadline) throw new Error(`the SMTP server did not get what was awaited: ${this.received.length} received, ${this.held.length} held`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}
