import { Component, type ReactNode } from 'react';
import { messages } from '../services/messages';

interface Props {
  children: ReactNode;
  /** Reloads the page; injected so tests can see it pressed. */
  onReload: () => void;
}

/**
 * A step whose view fails to render must not blank the whole page: the payer sees what happened and a way out, and the
 * rest of the page (Back, header) keeps working. (A step whose code cannot be loaded is a state of the checkout, with
 * its own retry: CodeFailed.)
 */
export class StepErrorBoundary extends Component<Props, { failed: boolean }> {
  override state = { failed: false };

  static getDerivedStateFromError(): { failed: boolean } {
    return { failed: true };
  }

  override componentDidCatch(error: unknown): void {
    console.error(error);
  }

  override render() {
    if (!this.state.failed) return this.props.children;
    return (
      <div role="alert" className="data-error">
        <p>{messages.app.stepFailed}</p>
        <button type="button" className="button primary" onClick={this.props.onReload}>
          {messages.app.reload}
        </button>
      </div>
    );
  }
}
