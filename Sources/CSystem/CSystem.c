#include "CSystem.h"

#include <errno.h>
#include <fcntl.h>
#include <malloc.h>
#include <pthread.h>
#include <signal.h>
#include <dirent.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/resource.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

int csys_epoll_create(void) { return epoll_create1(EPOLL_CLOEXEC); }

static int epoll_op(int epfd, int op, int fd, uint32_t events, uint64_t data) {
    struct epoll_event ev;
    memset(&ev, 0, sizeof ev);
    ev.events = events;
    ev.data.u64 = data;
    return epoll_ctl(epfd, op, fd, &ev);
}

int csys_epoll_add(int epfd, int fd, uint32_t events, uint64_t data) {
    return epoll_op(epfd, EPOLL_CTL_ADD, fd, events, data);
}

int csys_epoll_mod(int epfd, int fd, uint32_t events, uint64_t data) {
    return epoll_op(epfd, EPOLL_CTL_MOD, fd, events, data);
}

int csys_epoll_del(int epfd, int fd) { return epoll_ctl(epfd, EPOLL_CTL_DEL, fd, NULL); }

int csys_epoll_wait(int epfd, csys_event *out, int max, int timeout_ms) {
    struct epoll_event evs[256];
    if (max > 256) max = 256;
    int n;
    do {
        n = epoll_wait(epfd, evs, max, timeout_ms);
    } while (n < 0 && errno == EINTR);
    for (int i = 0; i < n; i++) {
        out[i].events = evs[i].events;
        out[i].data = evs[i].data.u64;
    }
    return n;
}

int csys_eventfd(void) { return eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC); }

int csys_eventfd_signal(int fd) {
    uint64_t one = 1;
    return (int)write(fd, &one, sizeof one);
}

int csys_eventfd_drain(int fd) {
    uint64_t value;
    return (int)read(fd, &value, sizeof value);
}

int csys_accept(int listen_fd) { return accept4(listen_fd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC); }

int csys_peer_credentials(int fd, int32_t *pid, uint32_t *uid, uint32_t *gid) {
    struct ucred cred;
    socklen_t len = sizeof cred;
    if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &len) != 0) return -1;
    *pid = cred.pid;
    *uid = cred.uid;
    *gid = cred.gid;
    return 0;
}

int32_t csys_peer_pid(int fd) {
    int32_t pid;
    uint32_t uid, gid;
    return csys_peer_credentials(fd, &pid, &uid, &gid) == 0 && pid > 0 ? pid : -1;
}

int csys_unix_socket(int nonblocking) {
    return socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | (nonblocking ? SOCK_NONBLOCK : 0), 0);
}

static int fill_address(struct sockaddr_un *addr, const char *path, socklen_t *len) {
    size_t n = strlen(path);
    if (n == 0 || n >= sizeof addr->sun_path) return -1;
    memset(addr, 0, sizeof *addr);
    addr->sun_family = AF_UNIX;
    memcpy(addr->sun_path, path, n);
    if (path[0] == '@') addr->sun_path[0] = '\0';
    *len = (socklen_t)(offsetof(struct sockaddr_un, sun_path) + n + (path[0] == '@' ? 0 : 1));
    return 0;
}

int csys_unix_listen(int fd, const char *path, int backlog) {
    struct sockaddr_un addr;
    socklen_t len;
    if (fill_address(&addr, path, &len) != 0) return -2;
    if (bind(fd, (struct sockaddr *)&addr, len) != 0) return -1;
    return listen(fd, backlog);
}

int csys_unix_connect(int fd, const char *path) {
    struct sockaddr_un addr;
    socklen_t len;
    if (fill_address(&addr, path, &len) != 0) return -2;
    int rc;
    do {
        rc = connect(fd, (struct sockaddr *)&addr, len);
    } while (rc != 0 && errno == EINTR);
    return rc;
}

int csys_is_listening_unix_socket(int fd) {
    int type = 0, listening = 0;
    socklen_t len = sizeof type;
    if (getsockopt(fd, SOL_SOCKET, SO_TYPE, &type, &len) != 0 || type != SOCK_STREAM) return 0;
    len = sizeof listening;
    if (getsockopt(fd, SOL_SOCKET, SO_ACCEPTCONN, &listening, &len) != 0) return 0;
    struct sockaddr_un addr;
    len = sizeof addr;
    if (getsockname(fd, (struct sockaddr *)&addr, &len) != 0 || addr.sun_family != AF_UNIX) return 0;
    return listening;
}

int csys_set_nonblocking(int fd, int on) {
    int flags = fcntl(fd, F_GETFL);
    if (flags < 0) return -1;
    return fcntl(fd, F_SETFL, on ? (flags | O_NONBLOCK) : (flags & ~O_NONBLOCK));
}

int csys_set_cloexec(int fd) {
    int flags = fcntl(fd, F_GETFD);
    if (flags < 0) return -1;
    return fcntl(fd, F_SETFD, flags | FD_CLOEXEC);
}

void csys_name_current_thread(const char *name) {
    char truncated[16];
    snprintf(truncated, sizeof truncated, "%s", name);
    pthread_setname_np(pthread_self(), truncated);
}

ssize_t csys_send(int fd, const void *buf, size_t len) {
    ssize_t n;
    do {
        n = send(fd, buf, len, MSG_NOSIGNAL | MSG_DONTWAIT);
    } while (n < 0 && errno == EINTR);
    return n;
}

ssize_t csys_recv(int fd, void *buf, size_t len, int peek) {
    ssize_t n;
    do {
        n = recv(fd, buf, len, MSG_DONTWAIT | (peek ? MSG_PEEK : 0));
    } while (n < 0 && errno == EINTR);
    return n;
}

int csys_open_reserve(void) { return open("/dev/null", O_RDONLY | O_CLOEXEC); }

int csys_count_open_descriptors(void) {
    DIR *dir = opendir("/proc/self/fd");
    if (dir == NULL) return -1;
    int count = 0;
    struct dirent *entry;
    while ((entry = readdir(dir)) != NULL) {
        if (entry->d_name[0] != '.') count++;
    }
    closedir(dir);
    return count - 1; /* the directory stream's own descriptor */
}

int csys_notify(const char *path, const char *message, size_t len) {
    struct sockaddr_un addr;
    socklen_t addrlen;
    if (fill_address(&addr, path, &addrlen) != 0) return -2;
    int fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
    if (fd < 0) return -1;
    ssize_t n = sendto(fd, message, len, MSG_NOSIGNAL | MSG_DONTWAIT, (struct sockaddr *)&addr, addrlen);
    int saved = errno;
    close(fd);
    errno = saved;
    return n == (ssize_t)len ? 0 : -1;
}

/* pthread calls return their error number; every csys_ call returns -1 with errno set instead. */
static int as_errno(int rc) {
    if (rc == 0) return 0;
    errno = rc;
    return -1;
}

int csys_unblock_all_signals(void) {
    sigset_t set;
    sigemptyset(&set);
    return as_errno(pthread_sigmask(SIG_SETMASK, &set, NULL));
}

int csys_block_signals(const int *signals, int count) {
    sigset_t set;
    sigemptyset(&set);
    for (int i = 0; i < count; i++) {
        signal(signals[i], SIG_DFL); /* an inherited SIG_IGN would discard the signal before sigtimedwait */
        sigaddset(&set, signals[i]);
    }
    return as_errno(pthread_sigmask(SIG_BLOCK, &set, NULL));
}

int csys_wait_signal(const int *signals, int count, int timeout_ms) {
    sigset_t set;
    sigemptyset(&set);
    for (int i = 0; i < count; i++) sigaddset(&set, signals[i]);
    struct timespec timeout = {timeout_ms / 1000, (long)(timeout_ms % 1000) * 1000000L};
    return sigtimedwait(&set, NULL, &timeout);
}

int csys_ignore_sigpipe(void) { return signal(SIGPIPE, SIG_IGN) == SIG_ERR ? -1 : 0; }

uint64_t csys_monotonic_usec(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000ULL + (uint64_t)ts.tv_nsec / 1000ULL;
}

uint64_t csys_monotonic_nsec(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

long csys_raise_fd_limit(void) {
    struct rlimit limit;
    if (getrlimit(RLIMIT_NOFILE, &limit) != 0) return -1;
    if (limit.rlim_cur < limit.rlim_max) {
        limit.rlim_cur = limit.rlim_max;
        if (setrlimit(RLIMIT_NOFILE, &limit) != 0) return -1;
    }
    return (long)limit.rlim_cur;
}

int csys_pin_mmap_threshold(int bytes) {
    if (mallopt(M_MMAP_THRESHOLD, bytes) == 1) return 0;
    errno = EINVAL;
    return -1;
}

#if defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define CSYS_THREAD_SANITIZER 1
#endif
#endif

#ifdef CSYS_THREAD_SANITIZER
void __tsan_acquire(void *address);
void __tsan_release(void *address);

void csys_tsan_acquire(const void *address) { __tsan_acquire((void *)address); }
void csys_tsan_release(const void *address) { __tsan_release((void *)address); }
#else
void csys_tsan_acquire(const void *address) { (void)address; }
void csys_tsan_release(const void *address) { (void)address; }
#endif
