/** The Nest HTTP platforms the HTTP suites run on (the applications' `HTTP_PLATFORM`). */
export const HTTP_PLATFORMS = ['express', 'fastify'] as const;
