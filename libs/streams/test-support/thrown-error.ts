/**
 * What `action` throws, after asserting it is a `type` (the test fails where `action` throws
 * nothing or another error): for specs that go on to assert the typed error's fields.
 */
export function thrownBy<E>(action: () => unknown, type: abstract new (...args: never[]) => E): E {
  let thrown: unknown;
  try {
    action();
  } catch (error) {
    thrown = error;
  }
  expect(thrown).toBeInstanceOf(type);
  return thrown as E;
}
