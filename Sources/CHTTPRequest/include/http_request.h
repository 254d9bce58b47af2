#ifndef ORDERPRESS_HTTP_REQUEST_H
#define ORDERPRESS_HTTP_REQUEST_H

#include <stddef.h>

// One HTTP exchange through libcurl's easy interface, run to its end on the calling thread (see
// http_request.c and URLSessionTransport.swift for why not URLSession). Never follows a redirect.
typedef struct http_request http_request;

http_request *http_request_new(void);
void http_request_free(http_request *request);

// Ends a running `http_request_perform` within about a second, from any thread.
void http_request_cancel(http_request *request);

// Sends `method` to `url` with `headers` ("Name: value" each) and `body` (NULL for none), gives up
// after `timeout_ms` in all, and stops once the body passes `max_body` bytes after decompression.
// Returns libcurl's result code (0: an answer came, whatever its status).
int http_request_perform(
    http_request *request, const char *url, const char *method, const char *const *headers, size_t header_count,
    const void *body, size_t body_size, long timeout_ms, size_t max_body);

long http_request_status(const http_request *request);
// The errno of a failed connection, 0 when none.
long http_request_os_error(const http_request *request);
// Whether the transfer stopped because the body passed `max_body`.
int http_request_too_large(const http_request *request);
// The body received; the caller takes it over (to be released with free) and the request forgets it.
void *http_request_take_body(http_request *request, size_t *size);
// The last answer's Location and Retry-After header values, NULL when absent; owned by the request.
const char *http_request_location(const http_request *request);
const char *http_request_retry_after(const http_request *request);

#endif
