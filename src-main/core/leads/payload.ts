// The delivery's shape is shared with the relay and the desks that pull from it.
export { type LeadParse, type ParsedLead, parseLeadDelivery } from '../../../src-shared/api/lead-delivery';
