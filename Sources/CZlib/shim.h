// The system's zlib (Debian: zlib1g-dev), for RunnectKit's streaming gzip reader. No stable API.
#include <zlib.h>
