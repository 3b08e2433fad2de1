// Injected wherever "now" matters so that date rules can be tested at fixed instants.
export type Clock = () => Date;

export const systemClock: Clock = () => new Date();
