import { knowledgeSectionFactory, leadsSectionFactory } from '../../kb/sections';
import type { AppContext } from '../context';
import type { Section } from '../section';
import { alertsSection } from './alerts-section';
import { dryRunSection } from './dry-run-section';
import { linksSection } from './links-section';
import { sandboxSection } from './sandbox-section';
import { stateNoticesSection } from './state-notices-section';
import { statementSection } from './statement-section';
import { urlImportSection } from './url-import-section';

export type SectionFactory = (ctx: AppContext) => Section | Promise<Section>;

/**
 * The registration point for areas beyond files and sync: one import and one line each here
 * (knowledge entries, leads). A section gets the shared context (db, keychain, event bus, session)
 * and answers its own contract commands; nothing else in the app changes.
 */
export const EXTRA_SECTIONS: SectionFactory[] = [
  leadsSectionFactory,
  knowledgeSectionFactory,
  sandboxSection,
  alertsSection,
  stateNoticesSection,
  dryRunSection,
  urlImportSection,
  linksSection,
  statementSection,
];
