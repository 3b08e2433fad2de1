import { UsageError } from './command.ts';

/**
 * One line of a pipe or file (100 §3.3): up to LF, a trailing CR dropped; nothing at all → usage
 * error (exit 2). The rest of the input is not read.
 */
export async function readLine(input: NodeJS.ReadableStream): Promise<string> {
  let text = '';
  for await (const chunk of input) {
    text += chunk.toString();
    const newline = text.indexOf('\n');
    if (newline >= 0) {
      text = text.slice(0, newline);
      (input as NodeJS.ReadStream).destroy?.();
      return text.replace(/\r$/, '');
    }
  }
  if (text === '') throw new UsageError('no password line on standard input');
  return text.replace(/\r$/, '');
}

/** Reads what is typed on the terminal without echoing it; Ctrl-C or Ctrl-D end with a usage error. */
function readHidden(prompt: string, input: NodeJS.ReadStream, output: NodeJS.WriteStream): Promise<string> {
  // Echo off before the prompt shows: what is typed the moment it appears is never echoed.
  input.setRawMode(true);
  output.write(prompt);
  input.resume();
  return new Promise((resolve, reject) => {
    let typed = '';
    const finish = (error?: Error) => {
      input.off('data', onData);
      input.setRawMode(false);
      input.pause();
      output.write('\n');
      if (error) reject(error);
      else resolve(typed);
    };
    const onData = (data: Buffer) => {
      for (const char of data.toString('utf8')) {
        if (char === '\r' || char === '\n') return finish();
        if (char === '\u0003' || char === '\u0004') return finish(new UsageError('cancelled'));
        if (char === '\u007f' || char === '\b') typed = [...typed].slice(0, -1).join('');
        else if (char >= ' ') typed += char;
      }
    };
    input.on('data', onData);
  });
}

/** 100 §3.3: on a terminal, asked twice without echo (they must match); otherwise one line of stdin. */
export async function readNewPassword(input: NodeJS.ReadStream = process.stdin, output: NodeJS.WriteStream = process.stderr): Promise<string> {
  if (!input.isTTY) return readLine(input);
  const first = await readHidden('New sign-in password: ', input, output);
  const second = await readHidden('Again: ', input, output);
  if (first !== second) throw new PasswordsDiffer();
  return first;
}

/** The two typed passwords differ (exit 1, like a policy failure). */
export class PasswordsDiffer extends Error {
  constructor() {
    super('the two passwords differ');
  }
}
