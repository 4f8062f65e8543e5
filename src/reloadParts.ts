import type { Dependencies } from './actors/dependencies';
import type { ResumeAfterReload } from './machines/checkoutResume';
import type { CheckoutDraft } from './services/checkoutDraft';

export interface ReloadParts {
  resumeAfterReload?: ResumeAfterReload;
  draft: CheckoutDraft | null;
}

/**
 * A reload on a step: resuming it (machines/checkoutResume.ts) and this tab's draft of the checkout
 * (services/draftReader.ts) are chunks of their own, loaded only then, so that no first visit carries them. Failing to
 * load either only means not resuming: the main route, with nothing kept.
 */
export async function reloadParts(resumePath: string, deps: Dependencies, billLink: string): Promise<ReloadParts> {
  const [resumeAfterReload, draft] = await Promise.all([
    import('./machines/checkoutResume').then(({ resumeAfterReload }) => resumeAfterReload).catch(() => undefined),
    import('./services/draftReader').then(({ readCheckoutDraft }) => readCheckoutDraft(deps.env.tabStorage, billLink)).catch(() => null),
  ]);
  return { resumeAfterReload, draft };
}
