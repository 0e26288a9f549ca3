// The services a data request's steps use in the bench's children, as the CLI builds them:
// lookups with the client's retries, sends without (the journal and pacer decide). One client per
// title and retry setting; close() ends them all.
export function requestServices(core, input, anchors) {
  const clients = new Map();
  const servicesWith = (maxRetries) => ({
    client: (t) => {
      const k = `${t} ${maxRetries}`;
      if (!clients.has(k)) clients.set(k, new core.PlatformClient({ titleId: t, endpoint: input.endpoint, getSecretKey: () => Promise.resolve(input.keys[t]), maxRetries }));
      return clients.get(k);
    },
    key: (t) => Promise.resolve(input.keys[t]),
    anchors,
  });
  return {
    services: servicesWith(undefined),
    senders: servicesWith(0),
    close: () => Promise.all([...clients.values()].map((c) => c.close())),
  };
}
