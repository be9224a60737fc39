/** Cancels a pending or dispatched order; its tests stay listed. */
import { assertCancellable } from '../domain/home-kit-order';
import { changeHomeKitOrder } from './home-kit-order-transition';
import type { Caller } from './request';

export const cancelHomeKitOrder = (id: string, caller: Caller) =>
  changeHomeKitOrder(
    id,
    {
      assertAllowed: (order) => assertCancellable(order.status),
      apply: (order, at) => ({ ...order, status: 'cancelled', updated_at: at }),
    },
    caller,
  );
