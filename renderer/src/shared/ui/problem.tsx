// A problem in words, with its technical detail for support one click away.
import type { ReactNode } from 'react';

/** A problem in words, with the technical detail one click away; `children` go between the two. */
export function Problem({ problem, alert = false, children }: { problem: { message: string; detail: string }; alert?: boolean; children?: ReactNode }) {
  return (
    <div className="problem" role={alert ? 'alert' : undefined}>
      <p>{problem.message}</p>
      {children}
      <SupportDetails detail={problem.detail} />
    </div>
  );
}

export function SupportDetails({ detail }: { detail: string }) {
  return (
    <details>
      <summary>Details for support</summary>
      <pre>{detail}</pre>
    </details>
  );
}
