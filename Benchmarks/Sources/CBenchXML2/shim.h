#ifndef EASYBAKE_BENCH_XML2_SHIM_H
#define EASYBAKE_BENCH_XML2_SHIM_H
/* Debian's libxml2 is built with ICU; its headers would pull the system's
   <unicode/ucnv.h>, which clashes with Foundation's ICU copy (see the root
   package's CLibXML2 shim). The benchmark touches no ICU field. */
#include <libxml/xmlversion.h>
#undef LIBXML_ICU_ENABLED
#include <libxml/parser.h>
#include <libxml/tree.h>
#include <libxml/SAX2.h>
#endif
