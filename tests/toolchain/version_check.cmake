# cmake -DF=<mpiprofConfigVersion.cmake> -DPACKAGE_FIND_VERSION=... -P:
# print whether the version file finds the request compatible (TRUE/FALSE).
include("${F}")
if(PACKAGE_VERSION_COMPATIBLE)
  message("TRUE")
else()
  message("FALSE")
endif()
