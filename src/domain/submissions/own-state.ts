/** Where a member's submission stands (120 §9), from its decision and its event's status. */
export type OwnState = 'pending' | 'draft' | 'published' | 'rejected' | 'withdrawn';

export function ownState(decision: 'approved' | 'rejected' | 'withdrawn' | null, status: string): OwnState {
  if (decision === 'withdrawn') return 'withdrawn';
  if (decision === 'rejected') return 'rejected';
  if (status === 'publish' || status === 'future') return 'published';
  if (status === 'pending' || status === 'draft') return status;
  // Trashed, made private or the like by an editor without a recorded decision: not accepted.
  return 'rejected';
}

/** Only these may still be edited or withdrawn by their member. */
export const isOpen = (state: OwnState): state is 'pending' | 'draft' => state === 'pending' || state === 'draft';
