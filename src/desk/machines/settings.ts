import { assertEvent, assign, setup, type ActorRefFrom } from 'xstate';
import { errorOf, logErrorStub, promiseStub } from '../../machines/stub';
import { problemOf, type DeskProblem } from '../services/http';
import type { Settings, SettingsChange, TestDelivery } from '../services/types';

export interface SettingsContext {
  settings: Settings | null;
  problem: DeskProblem | null;
  /** What the last action came to, for the page's status line. */
  outcome: { kind: 'saved' } | { kind: 'tested'; delivery: TestDelivery } | null;
}

export type SettingsEvent =
  | { type: 'settings.save'; change: SettingsChange }
  | { type: 'logo.upload'; image: string | null }
  | { type: 'webhook.test' }
  | { type: 'retry' };

/**
 * The merchant's settings (admins): read, then one action at a time: save the fields (every problem comes back by
 * field), put or remove the logo, send the webhook URL a test event.
 */
export const settingsMachine = setup({
  types: { context: {} as SettingsContext, events: {} as SettingsEvent, tags: {} as 'busy' | 'failed' },
  actors: {
    'load settings': promiseStub<Settings>('load settings'),
    'save settings': promiseStub<Settings, SettingsChange>('save settings'),
    'save logo': promiseStub<Settings, string | null>('save logo'),
    'test webhook': promiseStub<TestDelivery>('test webhook'),
  },
  actions: {
    'log error': logErrorStub,
    'keep settings': assign((_, params: { settings: Settings }) => ({ settings: params.settings, problem: null })),
    'remember problem': assign((_, params: { error: unknown }) => ({ problem: problemOf(params.error), outcome: null })),
    'forget outcome': assign({ outcome: null, problem: null }),
    'mark saved': assign({ outcome: { kind: 'saved' } as const }),
    'keep test': assign((_, params: { delivery: TestDelivery }) => ({ outcome: { kind: 'tested' as const, delivery: params.delivery } })),
  },
}).createMachine({
  id: 'settings',
  context: { settings: null, problem: null, outcome: null },
  initial: 'loading',
  states: {
    loading: {
      tags: 'busy',
      invoke: {
        src: 'load settings',
        onDone: { target: 'editing', actions: { type: 'keep settings', params: ({ event }) => ({ settings: event.output }) } },
        onError: { target: 'failed', actions: [{ type: 'log error', params: errorOf }, { type: 'remember problem', params: ({ event }) => ({ error: event.error }) }] },
      },
    },
    failed: { tags: 'failed', on: { retry: 'loading' } },
    editing: {
      on: {
        'settings.save': { target: 'saving', actions: 'forget outcome' },
        'logo.upload': { target: 'uploading', actions: 'forget outcome' },
        'webhook.test': { target: 'testing', actions: 'forget outcome' },
      },
    },
    saving: {
      tags: 'busy',
      invoke: {
        src: 'save settings',
        input: ({ event }) => {
          assertEvent(event, 'settings.save');
          return event.change;
        },
        onDone: { target: 'editing', actions: [{ type: 'keep settings', params: ({ event }) => ({ settings: event.output }) }, 'mark saved'] },
        onError: { target: 'editing', actions: [{ type: 'log error', params: errorOf }, { type: 'remember problem', params: ({ event }) => ({ error: event.error }) }] },
      },
    },
    uploading: {
      tags: 'busy',
      invoke: {
        src: 'save logo',
        input: ({ event }) => {
          assertEvent(event, 'logo.upload');
          return event.image;
        },
        onDone: { target: 'editing', actions: [{ type: 'keep settings', params: ({ event }) => ({ settings: event.output }) }, 'mark saved'] },
        onError: { target: 'editing', actions: [{ type: 'log error', params: errorOf }, { type: 'remember problem', params: ({ event }) => ({ error: event.error }) }] },
      },
    },
    testing: {
      tags: 'busy',
      invoke: {
        src: 'test webhook',
        onDone: { target: 'editing', actions: { type: 'keep test', params: ({ event }) => ({ delivery: event.output }) } },
        onError: { target: 'editing', actions: [{ type: 'log error', params: errorOf }, { type: 'remember problem', params: ({ event }) => ({ error: event.error }) }] },
      },
    },
  },
});

export type SettingsActor = ActorRefFrom<typeof settingsMachine>;
