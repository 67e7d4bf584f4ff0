// Little CMS 2 for Swift. The pixel-type macros (TYPE_RGB_8 ...) are built from other macros and do
// not import, so the ones colorcube uses are re-exported here as constants.
#ifndef COLORCUBE_CLITTLECMS_SHIM_H
#define COLORCUBE_CLITTLECMS_SHIM_H
#include <lcms2.h>

static const cmsUInt32Number CCMS_TYPE_RGB_8 = TYPE_RGB_8;
static const cmsUInt32Number CCMS_TYPE_RGBA_8 = TYPE_RGBA_8;
static const cmsUInt32Number CCMS_TYPE_RGB_16 = TYPE_RGB_16;
static const cmsUInt32Number CCMS_TYPE_RGBA_16 = TYPE_RGBA_16;
static const cmsUInt32Number CCMS_TYPE_RGB_FLT = TYPE_RGB_FLT;
static const cmsUInt32Number CCMS_TYPE_RGB_DBL = TYPE_RGB_DBL;
static const cmsUInt32Number CCMS_TYPE_RGBA_FLT = TYPE_RGBA_FLT;
static const cmsUInt32Number CCMS_TYPE_Lab_DBL = TYPE_Lab_DBL;
static const cmsUInt32Number CCMS_TYPE_GRAY_8 = TYPE_GRAY_8;
static const cmsUInt32Number CCMS_TYPE_CMYK_8 = TYPE_CMYK_8;
static const cmsUInt32Number CCMS_FLAGS_BLACKPOINTCOMPENSATION = cmsFLAGS_BLACKPOINTCOMPENSATION;
static const cmsUInt32Number CCMS_FLAGS_NOOPTIMIZE = cmsFLAGS_NOOPTIMIZE;
static const cmsUInt32Number CCMS_FLAGS_NOCACHE = cmsFLAGS_NOCACHE;
static const cmsUInt32Number CCMS_FLAGS_COPY_ALPHA = cmsFLAGS_COPY_ALPHA;
static const cmsUInt32Number CCMS_FLAGS_HIGHRESPRECALC = cmsFLAGS_HIGHRESPRECALC;
static const cmsUInt32Number CCMS_INTENT_PERCEPTUAL = INTENT_PERCEPTUAL;
static const cmsUInt32Number CCMS_INTENT_RELATIVE_COLORIMETRIC = INTENT_RELATIVE_COLORIMETRIC;

#endif
