/*
 * The C floor of `make bench` (scripts/bench.py, docs/benchmarks.md): the least any tool that
 * publishes OrderPress's pages must do. It takes the Markdown tree a build wrote, and writes into an
 * empty folder both trees: OUT/markdown (every file copied) and OUT/site (every .md page rendered to
 * .html with libcmark-gfm, every other file copied), on every core.
 *
 *     cc -O2 -pthread scripts/cfloor.c $(pkg-config --cflags --libs libcmark-gfm) -o cfloor
 *     cfloor MARKDOWN_DIR OUT_DIR
 *
 * The rendering is that of OrderPress's site pages (Sources/OrderPressRender/CMark.swift,
 * CMark.site): the table, strikethrough and tagfilter extensions, no autolink, no UNSAFE,
 * CMARK_OPT_TABLE_PREFER_STYLE_ATTRIBUTES, and relative links to .md pages turned into .html, so
 * each page's HTML is the body OrderPress puts inside its layout's <main>: byte for byte on every
 * page of a 2,000-order build of bench.py's sheet and of its Form-shaped one, and bench.py compares
 * a sample of pages on every run.
 * No layout, no escaping of data, no state: only the parse, the render and the writes.
 *
 * cmark-gfm 0.29's parse is not thread-safe (cmark_parser_finish edits global character tables for
 * the strikethrough extension; unlocked parallel parses were seen to corrupt outputs), so feed + finish are
 * serialised under one mutex; reading, rendering and writing run in parallel.
 */
#define _GNU_SOURCE
#include <cmark-gfm-core-extensions.h>
#include <cmark-gfm-extension_api.h>
#include <cmark-gfm.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define OPTIONS CMARK_OPT_TABLE_PREFER_STYLE_ATTRIBUTES

static const char *extension_names[] = {"table", "strikethrough", "tagfilter"};
static cmark_syntax_extension *extensions[3];

static const char *source_root, *markdown_root, *site_root;
static char **files; /* paths relative to source_root */
static size_t file_count, file_capacity;
static atomic_size_t next_file;
static pthread_mutex_t parse_lock = PTHREAD_MUTEX_INITIALIZER;

static void fail(const char *what, const char *path) {
    fprintf(stderr, "cfloor: %s %s: %s\n", what, path, strerror(errno));
    exit(1);
}

static char *join(const char *a, const char *b) {
    char *path;
    if (asprintf(&path, "%s/%s", a, b) < 0) { perror("cfloor"); exit(1); }
    return path;
}

static void make_folder(const char *path) {
    if (mkdir(path, 0755) != 0 && errno != EEXIST) fail("cannot create", path);
}

/* Lists the tree's files and makes its folders in both output trees, before any thread starts. */
static void walk(const char *relative) {
    char *folder = relative[0] ? join(source_root, relative) : strdup(source_root);
    DIR *dir = opendir(folder);
    if (!dir) fail("cannot read", folder);
    struct dirent *entry;
    while ((entry = readdir(dir))) {
        if (entry->d_name[0] == '.') continue;
        char *child = relative[0] ? join(relative, entry->d_name) : strdup(entry->d_name);
        struct stat info;
        char *full = join(source_root, child);
        if (stat(full, &info) != 0) fail("cannot read", full);
        free(full);
        if (S_ISDIR(info.st_mode)) {
            char *m = join(markdown_root, child), *s = join(site_root, child);
            make_folder(m);
            make_folder(s);
            free(m);
            free(s);
            walk(child);
            free(child);
        } else {
            if (file_count == file_capacity) {
                file_capacity = file_capacity ? file_capacity * 2 : 1024;
                files = realloc(files, file_capacity * sizeof *files);
                if (!files) { perror("cfloor"); exit(1); }
            }
            files[file_count++] = child;
        }
    }
    closedir(dir);
    free(folder);
}

static char *read_file(const char *path, size_t *size) {
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    struct stat info;
    if (fd < 0 || fstat(fd, &info) != 0) fail("cannot read", path);
    char *bytes = malloc((size_t)info.st_size + 1);
    if (!bytes) { perror("cfloor"); exit(1); }
    size_t done = 0;
    while (done < (size_t)info.st_size) {
        ssize_t n = read(fd, bytes + done, (size_t)info.st_size - done);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) fail("cannot read", path);
        done += (size_t)n;
    }
    close(fd);
    *size = done;
    return bytes;
}

static void write_file(const char *path, const char *bytes, size_t size) {
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0) fail("cannot write", path);
    size_t done = 0;
    while (done < size) {
        ssize_t n = write(fd, bytes + done, size - done);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) fail("cannot write", path);
        done += (size_t)n;
    }
    if (close(fd) != 0) fail("cannot write", path);
}

/* CMark.swift's LinkRewriter: a relative link (no leading / or #, no scheme) to x.md[#f] → x.html[#f]. */
static void rewrite_links(cmark_node *document) {
    cmark_iter *iter = cmark_iter_new(document);
    cmark_event_type event;
    while ((event = cmark_iter_next(iter)) != CMARK_EVENT_DONE) {
        cmark_node *node = cmark_iter_get_node(iter);
        if (event != CMARK_EVENT_ENTER || cmark_node_get_type(node) != CMARK_NODE_LINK) continue;
        const char *url = cmark_node_get_url(node);
        if (!url || !url[0] || url[0] == '/' || url[0] == '#' || strchr(url, ':')) continue;
        const char *hash = strchr(url, '#');
        size_t path = hash ? (size_t)(hash - url) : strlen(url);
        if (path < 3 || memcmp(url + path - 3, ".md", 3) != 0) continue;
        char *rewritten;
        if (asprintf(&rewritten, "%.*s.html%s", (int)(path - 3), url, hash ? hash : "") < 0) { perror("cfloor"); exit(1); }
        cmark_node_set_url(node, rewritten);
        free(rewritten);
    }
    cmark_iter_free(iter);
}

static char *render(const char *markdown, size_t size) {
    cmark_parser *parser = cmark_parser_new(OPTIONS);
    if (!parser) { fputs("cfloor: cmark_parser_new failed\n", stderr); exit(1); }
    for (int i = 0; i < 3; i++) cmark_parser_attach_syntax_extension(parser, extensions[i]);
    pthread_mutex_lock(&parse_lock);
    cmark_parser_feed(parser, markdown, size);
    cmark_node *document = cmark_parser_finish(parser);
    pthread_mutex_unlock(&parse_lock);
    rewrite_links(document);
    char *html = cmark_render_html(document, OPTIONS, cmark_parser_get_syntax_extensions(parser));
    cmark_node_free(document);
    cmark_parser_free(parser);
    return html;
}

static void *worker(void *unused) {
    (void)unused;
    size_t i;
    while ((i = atomic_fetch_add(&next_file, 1)) < file_count) {
        const char *relative = files[i];
        size_t size, length = strlen(relative);
        char *source = join(source_root, relative);
        char *bytes = read_file(source, &size);
        char *copy = join(markdown_root, relative);
        write_file(copy, bytes, size);
        if (length > 3 && strcmp(relative + length - 3, ".md") == 0) {
            char *html = render(bytes, size);
            char *target;
            if (asprintf(&target, "%s/%.*s.html", site_root, (int)(length - 3), relative) < 0) { perror("cfloor"); exit(1); }
            write_file(target, html, strlen(html));
            free(target);
            free(html);
        } else {
            char *target = join(site_root, relative);
            write_file(target, bytes, size);
            free(target);
        }
        free(copy);
        free(bytes);
        free(source);
    }
    return NULL;
}

int main(int argc, char **argv) {
    if (argc != 3) {
        fprintf(stderr, "usage: cfloor MARKDOWN_DIR OUT_DIR (OUT_DIR new or empty)\n");
        return 2;
    }
    source_root = argv[1];
    make_folder(argv[2]);
    markdown_root = join(argv[2], "markdown");
    site_root = join(argv[2], "site");
    if (mkdir(markdown_root, 0755) != 0) fail("cannot create (is the folder empty?)", markdown_root);
    if (mkdir(site_root, 0755) != 0) fail("cannot create (is the folder empty?)", site_root);

    cmark_gfm_core_extensions_ensure_registered(); /* once, before any thread */
    for (int i = 0; i < 3; i++) {
        extensions[i] = cmark_find_syntax_extension(extension_names[i]);
        if (!extensions[i]) { fprintf(stderr, "cfloor: no cmark-gfm extension %s\n", extension_names[i]); return 1; }
    }
    walk("");

    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    if (cores < 1) cores = 1;
    pthread_t *threads = calloc((size_t)cores, sizeof *threads);
    for (long t = 0; t < cores; t++)
        if (pthread_create(&threads[t], NULL, worker, NULL) != 0) { perror("cfloor: pthread_create"); return 1; }
    for (long t = 0; t < cores; t++) pthread_join(threads[t], NULL);
    printf("%zu files, %ld threads\n", file_count, cores);
    return 0;
}
