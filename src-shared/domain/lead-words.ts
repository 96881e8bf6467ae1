/**
 * A lead's words, shared by the Leads view (badge, filter, details), the leads CSV and the CLI (issue 34):
 * what a lead is called by who it waits for, and which clock each of its times is on. A lead's start is
 * the service's time (the sandbox's clock may have been moved days on); its arrival and its "handled"
 * are this computer's, so "Started 6 Dec" beside "Received 28 Nov" says why.
 */

/** Who a lead waits for: the badge of one row, and the filter's button that shows those rows. */
export const LEAD_KIND_WORDS = {
  lead: { one: 'Lead', filter: 'Leads' },
  person: { one: 'Wants a person', filter: 'Wants a person' },
} as const;

export function leadKindText(wantsAPerson: boolean): string {
  return LEAD_KIND_WORDS[wantsAPerson ? 'person' : 'lead'].one;
}

export type LeadTime = 'started' | 'received' | 'handled';

/** The clock a lead's time is on, in words: "the sandbox's clock", "this computer's clock". */
export function leadClock(time: LeadTime, sandbox: boolean): string {
  if (time === 'started') return sandbox ? "the sandbox's clock" : "the service's clock";
  return "this computer's clock";
}

const TIME_WORD: Record<LeadTime, string> = { started: 'Started', received: 'Received', handled: 'Handled' };

/** A time's label on screen: "Started (the sandbox's clock)". */
export function leadTimeLabel(time: LeadTime, sandbox: boolean): string {
  return `${TIME_WORD[time]} (${leadClock(time, sandbox)})`;
}
