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
      title="Desks behind this address share its requests"
    >
      {officeSentence(status)}
    </span>
  );
}
