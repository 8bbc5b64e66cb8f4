import { useState } from "react";

export interface ActionOptions<Output> {
  onSuccess?(output: Output): void | Promise<void>;
  onError?(error: unknown): void;
  onSettled?(): void;
}

/**
 * A server call started by the user (like React Query's useMutation, without React Query): the public pages use it
 * so their first load does not carry React Query (issue 14). `isPending` is true while the call runs; a failing
 * onSuccess counts as a failed call.
 */
export function useAction<Input, Output>(run: (input: Input) => Promise<Output>, options: ActionOptions<Output>) {
  const [isPending, setPending] = useState(false);
  function mutate(input: Input): void {
    setPending(true);
    run(input)
      .then(async (output) => {
        await options.onSuccess?.(output);
      })
      .catch((error: unknown) => options.onError?.(error))
      .finally(() => {
        setPending(false);
        options.onSettled?.();
      });
  }
  return { mutate, isPending };
}
