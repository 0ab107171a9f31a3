import { useSyncExternalStore } from "react";

const subscribe = () => () => {};
/** False during server rendering and hydration, true once React runs in the browser. */
export function useHydrated() {
  return useSyncExternalStore(
    subscribe,
    () => true,
    () => false,
  );
}
