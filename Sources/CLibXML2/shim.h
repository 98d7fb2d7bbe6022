// CLibXML2: exposes the system libxml2 C API (libxml2-dev) to Swift.
//
// Debian's libxml2 is built with ICU, so <libxml/encoding.h> would pull in the system ICU
// headers, whose types clash with the ICU copy inside Foundation ("'UErrorCode' has different
// definitions in different modules") in any module that imports both. SeedKit never touches
// libxml2's encoding-handler structs (the only place ICU types appear), so the ICU part of the
// headers is switched off here; the library itself is unchanged.
#include <libxml/xmlversion.h>
#undef LIBXML_ICU_ENABLED
#include <libxml/parser.h>
#include <libxml/tree.h>
#include <libxml/xmlreader.h>
#include <libxml/xmlerror.h>
#include <libxml/xmlstring.h>
