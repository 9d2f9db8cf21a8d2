// Near-miss guards: factors below 1 for two names that read alike but mean different columns ("Billing ZIP" /
// "Shipping ZIP", "Email consent" / "Email", "Address 1" / "Address 2").

import { conceptCount, relatedness, unqualifiedFactor, type HeaderFeatures } from './concepts';
import type { Prepared } from './prepared-headers';

export function guardsCovered(own: Set<number>, other: Set<number>): number {
  let factor = 1;
  for (const g of own) {
    if (other.has(g)) continue;
    let close = false;
    for (const h of other) if ((relatedness.get(g * conceptCount + h) ?? 0) >= 0.8) close = true;
    if (!close) factor *= 0.4;
  }
  return factor;
}

/**
 * Qualifier family -> concepts that some header of one side carries with a
 * qualifier of that family ("Shipping ZIP" -> order_party: {postal_code}).
 */
export type QualifiedConcepts = Map<string, Set<number>>;

export function qualifiedConcepts(side: Prepared[]): QualifiedConcepts {
  const out: QualifiedConcepts = new Map();
  for (const p of side)
    for (const family of p.variants[0]!.features.qualifiers.keys()) {
      const set = out.get(family) ?? out.set(family, new Set()).get(family)!;
      for (const u of p.variants[0]!.features.units) if (u.concept >= 0) set.add(u.concept);
    }
  return out;
}

/**
 * One header is qualified ("Billing ZIP"), the other is not ("ZIP"). Mild
 * penalty, unless the unqualified header's own side also has a qualified
 * sibling with the same concept: then it is deliberately the other one.
 */
function oneSidedFactor(ids: Set<string>, family: string, plain: HeaderFeatures, plainSide: QualifiedConcepts): number {
  let factor = 1;
  for (const id of ids) factor = Math.min(factor, unqualifiedFactor.get(id) ?? 0.9);
  const siblings = plainSide.get(family);
  if (siblings && plain.units.some((u) => u.concept >= 0 && siblings.has(u.concept))) factor *= 0.5;
  return factor;
}

/** Multiplicative penalties for qualified near-misses. */
export function guardFactor(a: HeaderFeatures, b: HeaderFeatures, aSide: QualifiedConcepts, bSide: QualifiedConcepts): number {
  let factor = 1;
  for (const [family, qa] of a.qualifiers) {
    const qb = b.qualifiers.get(family);
    if (!qb) factor *= oneSidedFactor(qa, family, b, bSide);
    else {
      let shared = false;
      for (const q of qa) if (qb.has(q)) shared = true;
      if (!shared) factor *= 0.3; // billing vs shipping, home vs work
    }
  }
  for (const [family, qb] of b.qualifiers) if (!a.qualifiers.has(family)) factor *= oneSidedFactor(qb, family, a, aSide);
  // "Email consent" is not "Email": a meaning-changing concept must be on both sides.
  if (a.guards.size > 0) factor *= guardsCovered(a.guards, b.guards);
  if (b.guards.size > 0) factor *= guardsCovered(b.guards, a.guards);
  if (a.numbers !== '' && b.numbers !== '') {
    if (a.numbers !== b.numbers) factor *= 0.55; // "Address 1" vs "Address 2"
  } else if ((a.numbers || '1') !== '1' || (b.numbers || '1') !== '1') factor *= 0.75; // "Address 2" vs "Address"
  if (a.measureUnits.length > 0 && b.measureUnits.length > 0 && !a.measureUnits.some((u) => b.measureUnits.includes(u)))
    factor *= 0.85;
  return factor;
}
