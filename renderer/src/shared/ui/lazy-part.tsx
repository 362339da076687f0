// A part of the page that is loaded when first shown (a tab's panel, a dialog, the site form): its
// code is a chunk of its own, fetched from the host then. If that fetch fails (Sitewalk stopped, or
// the connection dropped) the part says so where it would have been, with a way to try again,
// instead of leaving a blank panel or taking the whole page down with it.
import { Component, lazy, Suspense, type ComponentType, type ReactNode } from 'react';
import { Problem } from './problem';

/** A part's code could not be fetched: the only failure PartLoader answers (others go on up). */
class PartLoadError extends Error {
  constructor(readonly reason: unknown) {
    super(reason instanceof Error ? reason.message : String(reason));
    this.name = 'PartLoadError';
  }
}

/** The parts whose load failed, each with how to make it load afresh (PartLoader's "Try again"). */
const failed = new Set<() => void>();

/**
 * A component whose code `load` fetches the first time it renders. A failed load stays failed (every
 * render until then shows the same failure, rather than fetching in a loop) until "Try again" in its
 * PartLoader, which fetches again; React.lazy alone would fail for good.
 */
export function lazyPart<P extends object>(load: () => Promise<ComponentType<P>>): ComponentType<P> {
  const make = () =>
    lazy(async () => {
      try {
        return { default: await load() };
      } catch (error) {
        failed.add(reset);
        throw new PartLoadError(error);
      }
    });
  const reset = () => {
    Loaded = make();
  };
  let Loaded = make();
  function Part(props: P) {
    return <Loaded {...props} />;
  }
  return Part;
}

/** Makes every part whose load failed load afresh when next rendered. */
function retryFailedParts(): void {
  for (const reset of failed) reset();
  failed.clear();
}

interface PartLoaderProps {
  /** What is loading, as the sentence names it: "the site form", "this panel". */
  what: string;
  /** Shown while it loads; nothing by default. */
  fallback?: ReactNode;
  /** Over the page (a dialog's part) rather than in the flow of a panel. */
  overlay?: boolean;
  /**
   * Hears whether the part is failed (true) or back (false): what makes room for the part (the map
   * beside the docked form) makes none for a failure sentence.
   */
  onFailure?: (failed: boolean) => void;
  children: ReactNode;
}

/** Where lazy parts render: a wait while they load, and a sentence with "Try again" if they cannot. */
export class PartLoader extends Component<PartLoaderProps, { error: unknown }> {
  override state: { error: unknown } = { error: null };

  static getDerivedStateFromError(error: unknown): { error: unknown } {
    return { error };
  }

  // A part that failed before: its first render is already the failure.
  override componentDidMount(): void {
    if (this.state.error !== null) this.props.onFailure?.(true);
  }

  override componentDidUpdate(_props: PartLoaderProps, previous: { error: unknown }): void {
    if ((previous.error === null) !== (this.state.error === null)) this.props.onFailure?.(this.state.error !== null);
  }

  override componentWillUnmount(): void {
    if (this.state.error !== null) this.props.onFailure?.(false);
  }

  override render(): ReactNode {
    const { what, fallback = null, overlay = false, children } = this.props;
    const { error } = this.state;
    if (error === null) return <Suspense fallback={fallback}>{children}</Suspense>;
    // A part that loaded but failed while it ran is not a loading problem: the page's own handling takes it.
    if (!(error instanceof PartLoadError)) throw error;
    const detail = error.message;
    return (
      <div className={`part-failed${overlay ? ' overlay' : ''}`}>
        <Problem alert problem={{ message: `Sitewalk could not load ${what}. Check that Sitewalk is still running, then try again.`, detail }}>
          <button
            type="button"
            onClick={() => {
              retryFailedParts();
              this.setState({ error: null });
            }}
          >
            Try again
          </button>
        </Problem>
      </div>
    );
  }
}
