import { screen, within } from '@testing-library/react';
import { messages } from '../../../src/services/messages';
import { eventually } from './app';
import type { Session } from './flow';
import type { Sight, Text } from './sights';

/** On-screen checks shared by the flows, in the payer's terms (roles, labels, the catalogue's texts). */
export const sees = {
  heading: (name: string | RegExp) => eventually(() => expect(screen.getByRole('heading', { name })).toBeVisible()),
  text: (text: string | RegExp) => eventually(() => expect(screen.getByText(text)).toBeVisible()),
  alert: (text: string | RegExp) => eventually(() => expect(screen.getAllByRole('alert').some((el) => (typeof text === 'string' ? el.textContent?.includes(text) : text.test(el.textContent ?? '')))).toBe(true)),
  noAlert: (text: string) => eventually(() => expect(screen.queryAllByRole('alert').some((el) => el.textContent?.includes(text))).toBe(false)),
  button: (name: string | RegExp) => eventually(() => expect(screen.getByRole('button', { name })).toBeEnabled()),
  noButton: (name: string | RegExp) => eventually(() => expect(screen.queryByRole('button', { name })).toBeNull()),
  field: (label: string | RegExp) => eventually(() => expect(screen.getByLabelText(label)).toBeVisible()),
  noField: (label: string | RegExp) => eventually(() => expect(screen.queryByLabelText(label)).toBeNull()),
  navigatedTo: (session: Session, pattern: RegExp) => eventually(() => expect(session.page.navigations.at(-1) ?? '').toMatch(pattern)),
  stayed: (session: Session) => expect(session.page.navigations).toEqual([]),
  back: (shown: boolean) => eventually(() => expect(!!screen.queryByRole('button', { name: messages.app.back })).toBe(shown)),
  status: (text: string) => eventually(() => expect(screen.getAllByRole('status').some((el) => el.textContent?.includes(text))).toBe(true)),
  dialog: (name: string) => eventually(() => expect(screen.getByRole('dialog', { name })).toBeVisible()),
  noDialog: () => eventually(() => expect(screen.queryByRole('dialog')).toBeNull()),
  within,
};

/** The payer's own hands: typing and clicking through user-event. */
export const does = {
  click: async (session: Session, name: string | RegExp, role: 'button' | 'link' | 'radio' | 'checkbox' = 'button') => {
    const target = await findEnabled(role, name);
    await session.page.user.click(target);
  },
  type: async (session: Session, label: string | RegExp, text: string) => {
    const field = await eventuallyGet(() => screen.getByLabelText(label));
    await session.page.user.clear(field);
    await session.page.user.type(field, text);
  },
};

async function eventuallyGet<T>(get: () => T): Promise<T> {
  let found: T | undefined;
  await eventually(() => {
    found = get();
  });
  return found!;
}

async function findEnabled(role: 'button' | 'link' | 'radio' | 'checkbox', name: string | RegExp) {
  return eventuallyGet(() => {
    const element = screen.getByRole(role, { name });
    expect(element).toBeEnabled();
    return element;
  });
}

const contains = (element: Element, text: Text) => (typeof text === 'string' ? (element.textContent ?? '').includes(text) : text.test(element.textContent ?? ''));

/** The jsdom adapter of a model state's sights (support/sights.ts): each waits while the page settles. */
export async function checkSight(session: Session, sight: Sight): Promise<void> {
  if ('heading' in sight) return sees.heading(sight.heading);
  if ('text' in sight) return sees.text(sight.text);
  if ('noText' in sight) return eventually(() => expect(screen.queryByText(sight.noText)).toBeNull());
  if ('alert' in sight) return eventually(() => expect(screen.getAllByRole('alert').some((el) => contains(el, sight.alert))).toBe(true));
  if ('noAlert' in sight) return eventually(() => expect(screen.queryAllByRole('alert').some((el) => contains(el, sight.noAlert))).toBe(false));
  if ('status' in sight) return eventually(() => expect(screen.getAllByRole('status').some((el) => contains(el, sight.status))).toBe(true));
  if ('button' in sight) return sees.button(sight.button);
  if ('disabledButton' in sight) return eventually(() => expect(screen.getByRole('button', { name: sight.disabledButton })).toBeDisabled());
  if ('noButton' in sight) return sees.noButton(sight.noButton);
  if ('link' in sight) return eventually(() => expect(screen.getByRole('link', { name: sight.link })).toBeVisible());
  if ('noLink' in sight) return eventually(() => expect(screen.queryByRole('link', { name: sight.noLink })).toBeNull());
  if ('field' in sight) return sees.field(sight.field);
  if ('noField' in sight) return sees.noField(sight.noField);
  if ('checked' in sight) return eventually(() => expect(screen.getByRole('checkbox', { name: sight.checked })).toBeChecked());
  if ('unchecked' in sight) return eventually(() => expect(screen.getByRole('checkbox', { name: sight.unchecked })).not.toBeChecked());
  if ('dialog' in sight) return sees.dialog(typeof sight.dialog === 'string' ? sight.dialog : String(sight.dialog));
  if ('noDialog' in sight) return sees.noDialog();
  if ('back' in sight) return sees.back(sight.back);
  if ('navigatedTo' in sight) return sees.navigatedTo(session, sight.navigatedTo);
  if ('reloaded' in sight) return eventually(() => expect(session.page.reloads.length).toBeGreaterThan(0));
  throw new Error(`no jsdom check for ${JSON.stringify(sight)}`);
}
