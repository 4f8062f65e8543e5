import { StrictMode } from 'react';
import type { AppActor as AppActorRef } from '../machines/app';
import { App } from './App';
import { AppActor, PageContext, type PageServices } from './appContext';

/**
 * The checkout page's tree, the same on the server (src/serverRender.tsx) and in the browser (main.tsx), so that the
 * markup the server renders is what the page's first render hydrates.
 */
export function CheckoutPage({ app, page }: { app: AppActorRef; page: PageServices }) {
  return (
    <StrictMode>
      <AppActor.Provider value={app}>
        <PageContext.Provider value={page}>
          <App />
        </PageContext.Provider>
      </AppActor.Provider>
    </StrictMode>
  );
}
