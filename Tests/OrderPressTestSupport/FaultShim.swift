import Foundation

/// A small C library, compiled with `cc` the first time a test asks for it, that a test loads into the built
/// binary with `LD_PRELOAD` to make writes fail as a full disk or a failing drive would: `write`, `pwrite`,
/// `writev`, `fsync`, `fdatasync`, `rename`, `renameat`, `renameat2`, `link` and `linkat` fail with the `errno`
/// in `ORDERPRESS_FAULT_ERRNO` (default ENOSPC) when a path involved contains one of the `|`-separated
/// patterns in `ORDERPRESS_FAULT_PATHS` (a pattern ending in `$` must end the path). `ORDERPRESS_FAULT_OPS`
/// names the kinds to fail ("write,fsync,rename"; default all); `ORDERPRESS_FAULT_AFTER`, how many matching
/// calls succeed first; `ORDERPRESS_FAULT_COUNT`, how many fail then (default: all that follow, as a full or
/// failing disk does; 1 for a passing fault). A file descriptor's path is read from /proc/self/fd.
package enum FaultShim {
    /// The compiled library; nil (and a reason) where there is no C compiler.
    package static let library: Result<URL, ShimUnavailable> = {
        let folder = TestSupport.temporaryFolder()
        let source = folder.appendingPathComponent("fault.c")
        let library = folder.appendingPathComponent("libfault.so")
        do {
            try Data(code.utf8).write(to: source)
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = ["cc", "-shared", "-fPIC", "-O1", "-o", library.path, source.path, "-ldl"]
            let errors = Pipe()
            process.standardError = errors
            try process.run()
            let message = errors.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            guard process.terminationStatus == 0 else { return .failure(ShimUnavailable(reason: String(decoding: message, as: UTF8.self))) }
            return .success(library)
        } catch {
            return .failure(ShimUnavailable(reason: "\(error)"))
        }
    }()

    package struct ShimUnavailable: Error {
        package var reason: String
    }

    /// The environment that makes the operations `operations` on paths containing one of `patterns` fail with `errno`.
    package static func environment(
        failing patterns: [String], operations: [String] = ["write", "fsync", "rename"], errno: Int32 = ENOSPC, after: Int = 0,
        count: Int? = nil
    ) throws -> [String: String] {
        [
            "ORDERPRESS_FAULT_COUNT": count.map(String.init) ?? "",
            "LD_PRELOAD": try library.get().path,
            "ORDERPRESS_FAULT_PATHS": patterns.joined(separator: "|"),
            "ORDERPRESS_FAULT_OPS": operations.joined(separator: ","),
            "ORDERPRESS_FAULT_ERRNO": String(errno),
            "ORDERPRESS_FAULT_AFTER": String(after),
        ]
    }

    private static let code = #"""
        #define _GNU_SOURCE
        #include <dlfcn.h>
        #include <errno.h>
        #include <fcntl.h>
        #include <stdio.h>
        #include <stdlib.h>
        #include <string.h>
        #include <sys/types.h>
        #include <sys/uio.h>
        #include <unistd.h>

        static long skipped = 0;

        static int operation_on(const char *kind) {
            const char *ops = getenv("ORDERPRESS_FAULT_OPS");
            return ops == NULL || *ops == 0 || strstr(ops, kind) != NULL;
        }

        static int path_matches(const char *path) {
            const char *patterns = getenv("ORDERPRESS_FAULT_PATHS");
            if (patterns == NULL || *patterns == 0 || path == NULL) return 0;
            char copy[4096];
            strncpy(copy, patterns, sizeof copy - 1);
            copy[sizeof copy - 1] = 0;
            char *saved = NULL;
            for (char *pattern = strtok_r(copy, "|", &saved); pattern != NULL; pattern = strtok_r(NULL, "|", &saved)) {
                size_t length = strlen(pattern);
                if (length > 0 && pattern[length - 1] == '$') {
                    pattern[length - 1] = 0;
                    size_t have = strlen(path), want = length - 1;
                    if (have >= want && strcmp(path + have - want, pattern) == 0) return 1;
                } else if (strstr(path, pattern) != NULL) {
                    return 1;
                }
            }
            return 0;
        }

        /* Whether this matching call fails: the first ORDERPRESS_FAULT_AFTER ones succeed. */
        static int strike(const char *kind, const char *path) {
            if (!operation_on(kind) || !path_matches(path)) return 0;
            const char *after = getenv("ORDERPRESS_FAULT_AFTER");
            long limit = after ? atol(after) : 0;
            const char *count = getenv("ORDERPRESS_FAULT_COUNT");
            long number = __atomic_fetch_add(&skipped, 1, __ATOMIC_SEQ_CST);
            if (number < limit) return 0;
            if (count != NULL && *count != 0 && number >= limit + atol(count)) return 0;
            const char *code = getenv("ORDERPRESS_FAULT_ERRNO");
            errno = code ? atoi(code) : ENOSPC;
            return 1;
        }

        static void descriptor_path(int fd, char *out, size_t size) {
            char link[64];
            snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
            ssize_t length = readlink(link, out, size - 1);
            out[length < 0 ? 0 : length] = 0;
        }

        static void path_at(int dirfd, const char *name, char *out, size_t size) {
            if (name[0] == '/' ) { snprintf(out, size, "%s", name); return; }
            char folder[4096];
            if (dirfd == AT_FDCWD) { if (!getcwd(folder, sizeof folder)) folder[0] = 0; }
            else descriptor_path(dirfd, folder, sizeof folder);
            snprintf(out, size, "%s/%s", folder, name);
        }

        static int descriptor_strikes(const char *kind, int fd) {
            if (getenv("ORDERPRESS_FAULT_PATHS") == NULL) return 0;
            char path[4096];
            descriptor_path(fd, path, sizeof path);
            return strike(kind, path);
        }

        #define NEXT(name) static __typeof__(name) *real; if (!real) real = dlsym(RTLD_NEXT, #name)

        ssize_t write(int fd, const void *buffer, size_t count) {
            NEXT(write);
            if (descriptor_strikes("write", fd)) return -1;
            return real(fd, buffer, count);
        }

        ssize_t pwrite(int fd, const void *buffer, size_t count, off_t offset) {
            NEXT(pwrite);
            if (descriptor_strikes("write", fd)) return -1;
            return real(fd, buffer, count, offset);
        }

        ssize_t pwrite64(int fd, const void *buffer, size_t count, off_t offset) {
            NEXT(pwrite64);
            if (descriptor_strikes("write", fd)) return -1;
            return real(fd, buffer, count, offset);
        }

        ssize_t writev(int fd, const struct iovec *vector, int count) {
            NEXT(writev);
            if (descriptor_strikes("write", fd)) return -1;
            return real(fd, vector, count);
        }

        int fsync(int fd) {
            NEXT(fsync);
            if (descriptor_strikes("fsync", fd)) return -1;
            return real(fd);
        }

        int fdatasync(int fd) {
            NEXT(fdatasync);
            if (descriptor_strikes("fsync", fd)) return -1;
            return real(fd);
        }

        static int names_strike(const char *kind, int olddir, const char *old, int newdir, const char *new) {
            if (getenv("ORDERPRESS_FAULT_PATHS") == NULL) return 0;
            char first[8192], second[8192];
            path_at(olddir, old, first, sizeof first);
            path_at(newdir, new, second, sizeof second);
            if (!operation_on(kind) || !(path_matches(first) || path_matches(second))) return 0;
            return strike(kind, path_matches(first) ? first : second);
        }

        int rename(const char *old, const char *new) {
            NEXT(rename);
            if (names_strike("rename", AT_FDCWD, old, AT_FDCWD, new)) return -1;
            return real(old, new);
        }

        int renameat(int olddir, const char *old, int newdir, const char *new) {
            NEXT(renameat);
            if (names_strike("rename", olddir, old, newdir, new)) return -1;
            return real(olddir, old, newdir, new);
        }

        int renameat2(int olddir, const char *old, int newdir, const char *new, unsigned int flags) {
            NEXT(renameat2);
            if (names_strike("rename", olddir, old, newdir, new)) return -1;
            return real(olddir, old, newdir, new, flags);
        }

        int link(const char *old, const char *new) {
            NEXT(link);
            if (names_strike("rename", AT_FDCWD, old, AT_FDCWD, new)) return -1;
            return real(old, new);
        }

        int linkat(int olddir, const char *old, int newdir, const char *new, int flags) {
            NEXT(linkat);
            if (names_strike("rename", olddir, old, newdir, new)) return -1;
            return real(olddir, old, newdir, new, flags);
        }
        """#
}
