#include "http_request.h"

#include <curl/curl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

struct http_request {
    atomic_int cancelled;
    long status;
    long os_error;
    int too_large;
    size_t max_body;
    char *body;
    size_t size;
    size_t capacity;
    char *location;
    char *retry_after;
};

static pthread_once_t initialised = PTHREAD_ONCE_INIT;

static void initialise(void) { curl_global_init(CURL_GLOBAL_DEFAULT); }

http_request *http_request_new(void) {
    pthread_once(&initialised, initialise);
    http_request *request = calloc(1, sizeof *request);
    if (request) atomic_init(&request->cancelled, 0);
    return request;
}

void http_request_free(http_request *request) {
    if (!request) return;
    free(request->body);
    free(request->location);
    free(request->retry_after);
    free(request);
}

void http_request_cancel(http_request *request) { atomic_store(&request->cancelled, 1); }

static size_t on_body(char *data, size_t size, size_t count, void *context) {
    http_request *request = context;
    size_t length = size * count;
    if (length > request->max_body - request->size) {
        request->too_large = 1;
        return 0;
    }
    if (request->size + length > request->capacity) {
        size_t capacity = request->capacity ? request->capacity + request->capacity / 2 : 64 * 1024;
        if (capacity < request->size + length) capacity = request->size + length;
        if (capacity > request->max_body) capacity = request->max_body;
        char *grown = realloc(request->body, capacity);
        if (!grown) return 0;
        request->body = grown;
        request->capacity = capacity;
    }
    memcpy(request->body + request->size, data, length);
    request->size += length;
    return length;
}

// `name`'s value when `line` is that header ("Name: value\r\n"), trimmed, newly allocated.
static char *header_value(const char *line, size_t length, const char *name) {
    size_t name_length = strlen(name);
    if (length <= name_length || strncasecmp(line, name, name_length) != 0 || line[name_length] != ':') return NULL;
    const char *start = line + name_length + 1;
    const char *end = line + length;
    while (start < end && (*start == ' ' || *start == '\t')) start++;
    while (end > start && (end[-1] == '\r' || end[-1] == '\n' || end[-1] == ' ' || end[-1] == '\t')) end--;
    char *value = malloc((size_t)(end - start) + 1);
    if (!value) return NULL;
    memcpy(value, start, (size_t)(end - start));
    value[end - start] = 0;
    return value;
}

static size_t on_header(char *line, size_t size, size_t count, void *context) {
    http_request *request = context;
    size_t length = size * count;
    // A new status line (after a 100 Continue): forget the headers of the interim answer.
    if (length >= 5 && strncmp(line, "HTTP/", 5) == 0) {
        free(request->location);
        free(request->retry_after);
        request->location = request->retry_after = NULL;
        return length;
    }
    char *value;
    if ((value = header_value(line, length, "Location"))) {
        free(request->location);
        request->location = value;
    } else if ((value = header_value(line, length, "Retry-After"))) {
        free(request->retry_after);
        request->retry_after = value;
    }
    return length;
}

// Called about once a second even while nothing arrives: a cancel is heard within that.
static int on_progress(void *context, curl_off_t total_down, curl_off_t now_down, curl_off_t total_up, curl_off_t now_up) {
    (void)total_down, (void)now_down, (void)total_up, (void)now_up;
    http_request *request = context;
    return atomic_load(&request->cancelled) ? 1 : 0;
}

int http_request_perform(
    http_request *request, const char *url, const char *method, const char *const *headers, size_t header_count,
    const void *body, size_t body_size, long timeout_ms, size_t max_body) {
    CURL *curl = curl_easy_init();
    if (!curl) return CURLE_FAILED_INIT;
    request->max_body = max_body;
    struct curl_slist *list = NULL;
    for (size_t index = 0; index < header_count; index++) list = curl_slist_append(list, headers[index]);
    // No "Expect: 100-continue" pause before a POST's body.
    list = curl_slist_append(list, "Expect:");

    curl_easy_setopt(curl, CURLOPT_URL, url);
    curl_easy_setopt(curl, CURLOPT_NOSIGNAL, 1L);
#if LIBCURL_VERSION_NUM >= 0x075500
    curl_easy_setopt(curl, CURLOPT_PROTOCOLS_STR, "http,https");
#else
    curl_easy_setopt(curl, CURLOPT_PROTOCOLS, (long)(CURLPROTO_HTTP | CURLPROTO_HTTPS));
#endif
    curl_easy_setopt(curl, CURLOPT_FOLLOWLOCATION, 0L);
    curl_easy_setopt(curl, CURLOPT_HTTPHEADER, list);
    curl_easy_setopt(curl, CURLOPT_ACCEPT_ENCODING, "");
    curl_easy_setopt(curl, CURLOPT_TIMEOUT_MS, timeout_ms);
    curl_easy_setopt(curl, CURLOPT_CONNECTTIMEOUT_MS, timeout_ms);
    curl_easy_setopt(curl, CURLOPT_MAXFILESIZE_LARGE, (curl_off_t)max_body);
    curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, on_body);
    curl_easy_setopt(curl, CURLOPT_WRITEDATA, request);
    curl_easy_setopt(curl, CURLOPT_HEADERFUNCTION, on_header);
    curl_easy_setopt(curl, CURLOPT_HEADERDATA, request);
    curl_easy_setopt(curl, CURLOPT_NOPROGRESS, 0L);
    curl_easy_setopt(curl, CURLOPT_XFERINFOFUNCTION, on_progress);
    curl_easy_setopt(curl, CURLOPT_XFERINFODATA, request);
    if (body) {
        curl_easy_setopt(curl, CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t)body_size);
        curl_easy_setopt(curl, CURLOPT_POSTFIELDS, body);
    }
    if (strcmp(method, "GET") != 0 && strcmp(method, "POST") != 0) curl_easy_setopt(curl, CURLOPT_CUSTOMREQUEST, method);

    CURLcode code = curl_easy_perform(curl);
    curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &request->status);
    curl_easy_getinfo(curl, CURLINFO_OS_ERRNO, &request->os_error);
    if (code == CURLE_FILESIZE_EXCEEDED) request->too_large = 1;
    curl_easy_cleanup(curl);
    curl_slist_free_all(list);
    return (int)code;
}

long http_request_status(const http_request *request) { return request->status; }
long http_request_os_error(const http_request *request) { return request->os_error; }
int http_request_too_large(const http_request *request) { return request->too_large; }

void *http_request_take_body(http_request *request, size_t *size) {
    void *body = request->body;
    *size = request->size;
    request->body = NULL;
    request->size = request->capacity = 0;
    return body;
}

const char *http_request_location(const http_request *request) { return request->location; }
const char *http_request_retry_after(const http_request *request) { return request->retry_after; }
