import { useUi } from '../../stores/ui-store';

export async function copyText(label: string, text: string): Promise<void> {
  try {
    await navigator.clipboard.writeText(text);
    useUi.getState().toast('info', `${label} copied`);
  } catch {
    useUi
      .getState()
      .toast('error', `The ${label.toLowerCase()} could not be copied; select it and copy by hand.`);
  }
}
