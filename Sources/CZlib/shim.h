// CZlib: exposes the system zlib C API (zlib1g-dev) to Swift, for reading gzip input.
#include <zlib.h>
