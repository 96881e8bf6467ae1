import { useEffect } from 'react';
import { officeSentence } from '../../../src-shared/domain/office-text';
import { useOffice } from './office-store';

/** The Folders header's line about the office: shown while this desk shares its address with others. */
export function OfficeLine() {
  const status = useOffice((s) => s.status);
  useEffect(() => {
    void useOffice.getState().load();
  }, []);
  if (!status || (status.mode !== 'office' && status.pausedForMs === 0)) return null;
  return (
    <span
      className="small muted"
      data-testid="office-line"
      title="A desk is this app on one computer. The desks behind one internet address (an office) share the service's requests a minute, so that together they stay under its limit; Settings > Office says more."
    >
      {officeSentence(status)}
    </span>
  );
}
