import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import { setPlatform } from './api/core-ref';
import { detectPlatform } from './api/platform';
import { loadConnected } from './stores/load-connected';
import { useUi } from './stores/ui-store';
import { wireEvents } from './stores/wire-events';
import './styles/app.css';

const platform = detectPlatform((link) => useUi.setState({ link }));
setPlatform(platform);
wireEvents(platform.core);

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
