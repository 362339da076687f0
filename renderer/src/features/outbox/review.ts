// Why an entry waits for review, said as it happened: a timeout is "no answer", an error page or an
// unreadable answer is an answer that does not tell (never "no answer came back"), a dropped
// connection or a stop of Sitewalk mid-call is said as such. Then what was done about it.
import type { ProblemView } from '../../../../electron/shared/contract/index';

export type ReviewedRequest = 'reprocess' | 'create' | 'edit';

/** The sentence under a needs-review entry's problem. */
export function reviewText(problem: ProblemView | null, request: ReviewedRequest): string {
  const why = whyUnknown(problem);
  switch (request) {
    case 'reprocess':
      return `${why} It was not sent again, so the email is not sent twice.`;
    case 'create':
      return `${why} It was not sent again, to avoid a duplicate site. Look the site up in the web interface and enter its ID here.`;
    default:
      return why;
  }
}

function whyUnknown(problem: ProblemView | null): string {
  switch (problem?.kind) {
    case 'timeout':
      return 'The request may have reached the service, but no answer came back in time.';
    case 'http':
      return 'An error page came back instead of the service\'s answer (from the service or a proxy in front of it), so it is not known whether the service applied the request.';
    case 'protocol':
      return 'An answer came back that Sitewalk cannot read, so it is not known whether the service applied the request.';
    case 'network':
      return 'The connection broke after the request left, so it may have reached the service.';
    case 'interrupted':
      return 'Sitewalk stopped while the request was on its way, so it may have reached the service.';
    default:
      return 'The request may have reached the service, but nothing says whether it was applied.';
  }
}
