import { useSelector } from '../../views/useSelector';
import { createContext, createElement, useContext, type ReactNode } from 'react';
import type { DeskActor, DeskSnapshot } from '../machines/desk';
import type { DeskConfig } from '../services/deskConfig';

const DeskActorContext = createContext<DeskActor | null>(null);

/** What the views need beside the machine: the page's config and the few browser services they use. */
export interface DeskServices {
  config: DeskConfig;
  /** Copies text to the clipboard; false when the browser would not. */
  copy: (text: string) => Promise<boolean>;
  /** The current time (the exports' default period). */
  now: () => number;
}

const DeskServicesContext = createContext<DeskServices | null>(null);

function useDeskActor(): DeskActor {
  const actor = useContext(DeskActorContext);
  if (!actor) throw new Error('Desk.Provider is not around this view');
  return actor;
}

/** The root actor for every view: narrow reads with useSelector, events with send. */
export const Desk = {
  Provider: ({ actor, services, children }: { actor: DeskActor; services: DeskServices; children: ReactNode }) =>
    createElement(DeskActorContext.Provider, { value: actor }, createElement(DeskServicesContext.Provider, { value: services }, children)),
  useActorRef: useDeskActor,
  useSelector: <T>(selector: (snapshot: DeskSnapshot) => T, compare?: (a: T, b: T) => boolean): T => useSelector(useDeskActor(), selector, compare),
};

export function useDeskServices(): DeskServices {
  const services = useContext(DeskServicesContext);
  if (!services) throw new Error('Desk services are not provided');
  return services;
}
