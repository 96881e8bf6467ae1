import { formatIstTime } from '../../../src-shared/domain/time-format';
import { appError } from '../../../src-shared/errors';
import { openLeadsInbox } from '../../core';
import { EXIT, parseCommand, withSession } from '../common';
import { forTerminal, forTerminalLines } from '../terminal-text';

const USAGE = `assets-sync leads [--json] [--csv] [--open|--handled] [--search TEXT] [--no-pull]
  The leads inbox on this computer, newest first. When a relay is configured (saved in the app, or
  ASSETS_RELAY_URL and ASSETS_RELAY_TOKEN), what it holds for this desk is pulled first, and each
  delivery is verified with the bots' signing secrets (or ASSETS_SIGNING_SECRET): one that matches none
  is refused, counted and named on standard error, and never listed.
  --open       only leads nobody has marked handled      --handled   only handled ones
  --search     words found in the name, email, phone (digits alone too), note, bot or visitor reference
  --csv        CSV on standard output (the app's export)
  --json       one JSON object per lead, with its conversationId
  --no-pull    list what is here without asking the relay`;

export async function run(argv: string[]): Promise<number> {
  const p = parseCommand('leads', argv, {
    options: {
      csv: { type: 'boolean', default: false },
      open: { type: 'boolean', default: false },
      handled: { type: 'boolean', default: false },
      search: { type: 'string' },
      'no-pull': { type: 'boolean', default: false },
    },
    usage: USAGE,
  });
  if (!p.ok) return p.exitCode;
  const { common, out, values } = p;
  if (values.csv && common.json) {
    out.error(appError('USAGE', 'Choose --csv or --json, not both.'));
    return EXIT.usage;
  }
  if (values.open && values.handled) {
    out.error(appError('USAGE', 'Choose --open or --handled, not both.'));
    return EXIT.usage;
  }
  const filter = {
    ...(values.open ? { handled: false } : values.handled ? { handled: true } : {}),
    ...(values.search?.trim() ? { query: values.search.trim() } : {}),
  };
  return withSession(common, out, async ({ state }) => {
    const inbox = openLeadsInbox(state);
    let code: number = EXIT.ok;
    const relay = inbox.relay();
    if (relay.error) {
      out.error(relay.error);
      code = EXIT.failed;
    } else if (relay.source === 'relay' && !values['no-pull']) {
      const pulled = await inbox.pullOnce();
      // People read this on standard error, so the listing on standard output stays data alone.
      if (!pulled.ok) {
        process.stderr.write(
          `${forTerminalLines(`leads: ${pulled.error.message} [${pulled.error.code}]; listing what is here.`)}\n`,
        );
        code = EXIT.failed;
      } else {
        const s = pulled.value;
        process.stderr.write(
          `leads: pulled from ${forTerminal(relay.url ?? '')}: ${s.added} new, ${s.changed} handled elsewhere, ${s.rejected} refused\n`,
        );
        if (s.expired > 0)
          process.stderr.write(
            `leads: ${s.expired} lead${s.expired === 1 ? ' was' : 's were'} deleted by the relay (older than its retention) before this desk read ${s.expired === 1 ? 'it' : 'them'}: ${s.expired === 1 ? 'it' : 'they'} cannot be read any more. Pull more often than the relay's --retention-days.\n`,
          );
      }
      for (const r of inbox.rejected())
        process.stderr.write(
          `${forTerminalLines(`leads: refused delivery #${r.relaySeq} (received ${r.receivedAt}, conversation ${r.conversationId ?? '?'}, claims bot ${r.claimedBotId ?? '?'}): ${r.reason} [${r.code}]`)}\n`,
        );
    }
    if (values.csv) {
      process.stdout.write(inbox.exportCsv(filter).csv);
      return code;
    }
    const leads = inbox.list({ ...filter, limit: 1_000_000 });
    for (const l of leads) {
      const state = l.handledAt ? `handled${l.handledBy ? ` by ${l.handledBy}` : ''}` : 'open';
      out.emit(
        `${formatIstTime(Date.parse(l.receivedAt))}  ${l.name || '(no name)'}  ${l.email}  ${l.phone}  ${l.botName}  ${l.event === 'HANDOFF-REQUESTED' || l.askedForAPerson ? 'wants a person  ' : ''}${state}`,
        { ...l },
      );
    }
    if (!common.json) out.note(`${leads.length} lead${leads.length === 1 ? '' : 's'}`);
    return code;
  });
}
