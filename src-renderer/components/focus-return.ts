import { type RefObject, useEffect } from 'react';
import { focusIsLost } from '../lib/focus-rescue';

/**
 * Focus goes back where it came from when a dialog closes (issue 34), for every dialog of the app from
 * one listener, as the Tab trap (dialog-focus.ts). The browser gives focus back to the element that
 * had it before `showModal()`, but when that element was drawn anew meanwhile (a row of the Files
 * table re-rendered under the delete dialog) or the dialog left the page before it closed, focus fell
 * to the page's start. So the last control focused outside any dialog is remembered, with how to find
 * its twin (tag and accessible name) if it was replaced; on a dialog's close, once the page settled,
 * focus goes there, but only when nothing holds it (never stealing it).
 */
interface Remembered {
  el: HTMLElement;
  selector: string | null;
}

function selectorOf(el: HTMLElement): string | null {
  if (el.id) return `#${CSS.escape(el.id)}`;
  const label = el.getAttribute('aria-label');
  return label ? `${el.tagName.toLowerCase()}[aria-label="${CSS.escape(label)}"]` : null;
}

/** Gives focus back to `r` (or its twin, by id or accessible name); true when it did. */
export function returnFocus(r: Remembered | null, doc: Document = document): boolean {
  if (!r || !focusIsLost(doc)) return false;
  const to = r.el.isConnected ? r.el : r.selector ? doc.querySelector<HTMLElement>(r.selector) : null;
  if (!to || (to as HTMLButtonElement).disabled) return false;
  to.focus();
  return doc.activeElement === to;
}

export function remember(el: Element | null): Remembered | null {
  return el instanceof HTMLElement && el !== el.ownerDocument.body ? { el, selector: selectorOf(el) } : null;
}

export function installDialogFocusReturn(doc: Document = document): () => void {
  let last: Remembered | null = null;
  const onFocus = (e: FocusEvent) => {
    const t = e.target;
    if (t instanceof HTMLElement && !t.closest('dialog')) last = remember(t);
  };
  let pending: (() => void) | null = null;
  // `close` does not bubble; a listener on the document in the capture phase hears every dialog's.
  const onClose = (e: Event) => {
    if (!(e.target instanceof HTMLDialogElement)) return;
    pending?.();
    pending = returnWhenDrawn(last, doc);
  };
  doc.addEventListener('focusin', onFocus, true);
  doc.addEventListener('close', onClose, true);
  return () => {
    pending?.();
    doc.removeEventListener('focusin', onFocus, true);
    doc.removeEventListener('close', onClose, true);
  };
}

/**
 * Gives focus back once React has drawn what the close changed (the row again, a button enabled
 * again), and again after each later change of the page while focus is still lost: a list refreshed by
 * a pushed state can draw the row anew after the first try, taking the focused button with it (on a
 * busy machine focus fell to the body once in CI that way). It stops when the person presses or clicks
 * anything, or after a few seconds; it returns its own stop.
 */
function returnWhenDrawn(from: Remembered | null, doc: Document): () => void {
  const view = doc.defaultView;
  if (!from || !view) return () => {};
  let done = false;
  // returnFocus acts only while focus is lost, so a person's own choice is never overridden.
  const observer = new view.MutationObserver(() => returnFocus(from, doc));
  const stop = () => {
    if (done) return;
    done = true;
    observer.disconnect();
    view.clearTimeout(cap);
    doc.removeEventListener('keydown', stop, true);
    doc.removeEventListener('pointerdown', stop, true);
  };
  const cap = view.setTimeout(stop, 5_000);
  doc.addEventListener('keydown', stop, true);
  doc.addEventListener('pointerdown', stop, true);
  view.requestAnimationFrame(() =>
    view.requestAnimationFrame(() => {
      if (done) return;
      returnFocus(from, doc);
      observer.observe(doc.body, { subtree: true, childList: true, attributes: true });
    }),
  );
  return stop;
}

/**
 * An inline panel a button opens in the page (Add folder's form, Upload from URL, Import list) behaves
 * as a dialog to the keyboard: focus moves to its first field when it opens, Escape closes it, and focus
 * goes back to the control that opened it when it closes (that button is disabled while the panel is
 * open, so the browser had dropped focus to the page's start).
 */
export function usePanelFocus(ref: RefObject<HTMLElement | null>, onClose: () => void): void {
  // biome-ignore lint/correctness/useExhaustiveDependencies: once, on open: the opener is what had focus then
  useEffect(() => {
    const opener = remember(document.activeElement);
    const panel = ref.current;
    panel
      ?.querySelector<HTMLElement>('input:not([type="hidden"]):not([readonly]), textarea, select, button')
      ?.focus();
    return () => {
      requestAnimationFrame(() => requestAnimationFrame(() => returnFocus(opener)));
    };
  }, []);
  useEffect(() => {
    const panel = ref.current;
    if (!panel) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== 'Escape' || e.defaultPrevented) return;
      e.preventDefault();
      onClose();
    };
    panel.addEventListener('keydown', onKey);
    return () => panel.removeEventListener('keydown', onKey);
  }, [ref, onClose]);
}
