import type { ComponentType } from 'react';
import type { Session } from '../../src-shared/contract';
import type { IconName } from '../components/Icon';
import { AccountView } from './account/AccountView';
import { ActivityView } from './activity/ActivityView';
import { FilesView } from './files/FilesView';
import { FoldersView } from './folders/FoldersView';
import { KnowledgeView } from './kb/KnowledgeView';
import { LeadsView } from './leads/LeadsView';
import { SandboxView } from './sandbox/SandboxView';
import { SettingsView } from './settings/SettingsView';
import { StatementView } from './statement/StatementView';
import { UsageView } from './usage/UsageView';

export interface ViewEntry {
  id: string;
  label: string;
  icon: IconName;
  component: ComponentType;
  /** Sidebar group: the file service, the bots, or the app itself. */
  group: 'files' | 'bots' | 'app';
  /** Shown only for such a session (the Sandbox panel: only while connected to the sandbox). */
  when?: (session: Session) => boolean;
}

/** The views a session shows, in order; with a group, that group's only. */
export const viewsFor = (session: Session | null, group?: ViewEntry['group']): ViewEntry[] =>
  VIEWS.filter((v) => (!group || v.group === group) && (!v.when || (session !== null && v.when(session))));

/**
 * The sidebar and the router read this list. Another area adds its views with one line each in
 * the right group (knowledge entries and leads go in 'bots').
 */
export const VIEWS: ViewEntry[] = [
  { id: 'folders', label: 'Folders', icon: 'folder', component: FoldersView, group: 'files' },
  { id: 'files', label: 'Files', icon: 'files', component: FilesView, group: 'files' },
  { id: 'account', label: 'Account', icon: 'wallet', component: AccountView, group: 'files' },
  { id: 'usage', label: 'Usage', icon: 'chart', component: UsageView, group: 'files' },
  { id: 'statement', label: 'Statement', icon: 'book', component: StatementView, group: 'files' },
  { id: 'knowledge', label: 'Knowledge', icon: 'book', component: KnowledgeView, group: 'bots' },
  { id: 'leads', label: 'Leads', icon: 'inbox', component: LeadsView, group: 'bots' },
  {
    id: 'sandbox',
    label: 'Sandbox',
    icon: 'cloud',
    component: SandboxView,
    group: 'app',
    when: (s) => s.kind === 'sandbox',
  },
  { id: 'activity', label: 'Activity', icon: 'activity', component: ActivityView, group: 'app' },
  { id: 'settings', label: 'Settings', icon: 'settings', component: SettingsView, group: 'app' },
];
