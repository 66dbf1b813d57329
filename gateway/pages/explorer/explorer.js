// Starts GraphiQL against this server's /graphql. A file of its own: the page's policy allows no inline script.
(function () {
  var root = document.getElementById('graphiql');
  var introspection = root.getAttribute('data-introspection') === 'true';
  var defaultQuery = [
    '# Signed-in requests: put your access token in Headers below,',
    '#   { "Authorization": "Bearer <access token from POST /api/auth/login>" }',
    '',
    '{',
    '  __typename',
    '}',
    '',
  ].join('\n');
  ReactDOM.createRoot(root).render(
    React.createElement(GraphiQL, {
      fetcher: GraphiQL.createFetcher({ url: new URL('/graphql', window.location.href).href }),
      defaultQuery: defaultQuery,
      defaultEditorToolsVisibility: 'headers',
      isHeadersEditorEnabled: true,
      // Tokens stay out of localStorage.
      shouldPersistHeaders: false,
      // Without introspection the schema cannot be fetched: ask for none instead of showing an error.
      schema: introspection ? undefined : null,
    }),
  );
})();
