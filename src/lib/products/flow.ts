import type { FlowShape } from '../quote-flow';
import type { ProductLine } from '../simulators';
import { PRODUCTS } from './catalog';
import type { ProductDef } from './types';

/** A product's steps (SPEC §4): risco when it asks risk questions, then its own final step. */
export const flowOf = (product: ProductDef): FlowShape => ({ hasRisk: product.riskQuestions.length > 0, finalStep: product.finalStep });

/** Every product of a line shares its flow (the catalog's tests hold it), so a route knows its steps by line. */
export function lineFlow(line: ProductLine): FlowShape {
  const product = Object.values(PRODUCTS).find((p) => p.line === line);
  if (!product) throw new Error(`Linha sem produto: ${line}`);
  return flowOf(product);
}
