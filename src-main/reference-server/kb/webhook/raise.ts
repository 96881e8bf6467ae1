import { randomBytes } from 'node:crypto';
import type { LeadEvent } from '../../../../src-shared/api/knowledge';
import type { ServerContext } from '../../context';
import type { Bot } from '../bots';
import type { DeliveryStore } from './deliveries-store';
import { buildLeadPayload, encodePayload, type LeadInput } from './payload';
import type { WebhookDispatcher } from './retry-jobs';

export interface RaisedEvent {
  conversation_id: number;
  delivery_id: number;
}

/**
 * A lead event: a new conversation (its id is the receiver's deduplication key), the exact body stored
 * once, and the first attempt started at once. A bot with no webhook URL still gets its attempts: each
 * one is a retryable failure that says why (FAILED means retries used up), so an owner who sets the URL
 * within the retry window gets the lead.
 */
export function raiseLeadEvent(
  ctx: ServerContext,
  deps: { deliveries: DeliveryStore; dispatcher: WebhookDispatcher },
  bot: Bot,
  input: { event: LeadEvent; lead: LeadInput; visitorRef?: string | undefined },
): RaisedEvent {
  const { deliveries } = deps;
  const now = ctx.clock.now();
  const visitorRef = input.visitorRef ?? `visitor-${randomBytes(6).toString('hex')}`;
  const raised = ctx.db.transaction((): RaisedEvent => {
    const conversationId = deliveries.newConversation(bot.id, visitorRef, now);
    const payload = buildLeadPayload(input.event, bot, input.lead, {
      id: conversationId,
      visitorRef,
      startedAtMs: now,
    });
    const deliveryId = deliveries.newDelivery({
      botId: bot.id,
      conversationId,
      event: input.event,
      body: encodePayload(payload),
      nextAttemptAt: now,
      createdAt: now,
    });
    return { conversation_id: conversationId, delivery_id: deliveryId };
  })();
  deps.dispatcher.startNow(raised.delivery_id);
  return raised;
}
