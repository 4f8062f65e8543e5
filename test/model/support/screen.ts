import { screen, within } from '@testing-library/react';
import { messages } from '../../../src/services/messages';
import { eventually } from './app';
import type { Session } from './flow';

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
