/**
 * Reads a secret: from a hidden prompt when standard input is a terminal (nothing echoed), else
 * the whole of standard input (`echo "$KEY" | assets-sync login`). Never from argv, which other
 * users can read in the process list.
 */
export async function readSecret(prompt: string): Promise<string | null> {
  const stdin = process.stdin;
  if (!stdin.isTTY) {
    const chunks: Buffer[] = [];
    for await (const chunk of stdin) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks).toString('utf8').trim();
  }
  process.stderr.write(prompt);
  return new Promise((resolve) => {
    let typed = '';
    const done = (value: string | null) => {
      stdin.setRawMode(false);
      stdin.pause();
      stdin.off('data', onData);
      process.stderr.write('\n');
      resolve(value);
    };
    const onData = (data: Buffer) => {
      for (const ch of data.toString('utf8')) {
        if (ch === '\r' || ch === '\n') return done(typed.trim());
        if (ch === '\u0003' || ch === '\u0004') return done(null); // Ctrl-C, Ctrl-D
        if (ch === '\u007f' || ch === '\b') typed = typed.slice(0, -1);
        else if (ch >= ' ') typed += ch;
      }
    };
    stdin.setRawMode(true);
    stdin.resume();
    stdin.on('data', onData);
  });
}
