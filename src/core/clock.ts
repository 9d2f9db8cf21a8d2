/** The time source of the service layer; tests inject a fixed or advancing clock. */
export type Clock = () => Date;

export const systemClock: Clock = () => new Date();

export function isoTime(clock: Clock): string {
  return clock().toISOString();
}
