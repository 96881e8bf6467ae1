// The base styles first: each view's CSS (imported by its module) comes after them in the bundle and
// so wins where it overrides a base rule of the same specificity (the lead cards at 800x600 kept the
// base table's cell borders and padding while app.css came last).
import './styles/app.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import { setPlatform } from './api/core-ref';
import { detectPlatform } from './api/platform';
import { loadConnected } from './stores/load-connected';
import { followRunwayToasts } from './stores/runway-notice';
import { useUi } from './stores/ui-store';
import { wireEvents } from './stores/wire-events';

const platform = detectPlatform((link) => useUi.setState({ link }));
setPlatform(platform);
wireEvents(platform.core);
followRunwayToasts();

async function boot() {
  const [session, settings] = await Promise.all([
    platform.core.call('session.get', {}),
    platform.core.call('settings.get', {}),
  ]);
  if (settings.ok) useUi.setState({ settings: settings.value });
  if (session.ok) {
    useUi.setState({ session: session.value });
    if (session.value.kind !== 'none') await loadConnected();
  } else useUi.getState().toast('error', session.error.message);
}

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
void boot();
