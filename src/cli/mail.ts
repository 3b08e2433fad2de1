import { loadConfig } from '../config.ts';
import { isMailAddress } from '../domain/submissions/mail-address.ts';
import { sendTestMail } from '../services/mail/test-mail.ts';
import { UsageError, type CliCommand } from './command.ts';

/** `calendar mail test ADDRESS` (120 §10.3): one message sent directly, the server's answer printed. */
export const MAIL_TEST_COMMAND: CliCommand = {
  words: ['mail', 'test'],
  synopsis: 'ADDRESS',
  summary: "send one message now with the configured SMTP settings and print the server's answer",
  details: '  sent directly, not through the outbox (nothing queued or retried)\n  exit: 0 accepted; 1 refused, unreachable, or CALENDAR_SMTP_URL not set; 2 usage',
  options: {},
  run: async (args) => {
    const [address, extra] = args.positionals;
    if (address === undefined || extra !== undefined) throw new UsageError('one ADDRESS is required');
    if (!isMailAddress(address)) throw new UsageError(`"${address}" is not a valid e-mail address`);
    const config = loadConfig();
    const result = await sendTestMail(config.mail, address, 'en', new Date());
    if (!result.ok) {
      console.error(`calendar: ${result.reason}`);
      return 1;
    }
    console.log(result.response);
    return 0;
  },
};
