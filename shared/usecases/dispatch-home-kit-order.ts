/** The kit is in the mail: pending → dispatched, with its tracking number; only with at least one test. */
import { assertDispatchable } from '../domain/home-kit-order';
import { testCount } from '../store/home-kit-orders';
import { changeHomeKitOrder } from './home-kit-order-transition';
import type { Caller } from './request';

export const dispatchHomeKitOrder = (id: string, shipping: { tracking_number: string; carrier?: string }, caller: Caller) =>
  changeHomeKitOrder(
    id,
    {
      assertAllowed: (order) => assertDispatchable(order.status, testCount(order)),
      apply: (order, at) => ({
        ...order,
        status: 'dispatched',
        tracking_number: shipping.tracking_number,
        carrier: shipping.carrier ?? null,
        dispatched_at: at,
        updated_at: at,
      }),
      // An order with no test cannot be dispatched: re-checked against a racing change.
      condition: { expression: 'size(panels) > :zero OR size(biomarkers) > :zero', values: { ':zero': 0 } },
    },
    caller,
  );
